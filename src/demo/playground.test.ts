import { describe, expect, it } from "vitest";
import { PLAYGROUND_EXAMPLE, readPlayground } from "./playground";

describe("readPlayground", () => {
  it("turns the model's arguments into the batch the panel shows", () => {
    expect(readPlayground(PLAYGROUND_EXAMPLE)).toEqual({
      kind: "questions",
      questions: [
        { id: "pkg", header: "Tooling", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
        { id: "name", question: "What should the project be called?" },
      ],
    });
    expect(readPlayground('{"questions":[{"id":"x","question":"Which?","options":[{"label":"A"},{"label":"B"}],"multi_select":true}]}')).toEqual({
      kind: "questions",
      questions: [{ id: "x", question: "Which?", options: [{ label: "A" }, { label: "B" }], multiSelect: true }],
    });
  });

  it("names text that is not JSON", () => {
    const result = readPlayground("{questions");
    expect(result.kind).toBe("errors");
    expect(result.kind === "errors" ? result.errors.map((error) => error.path) : null).toEqual([""]);
  });

  it("gives every shape error with its path, including keys the tool does not take", () => {
    const result = readPlayground('{"questions":[{"id":"a","question":1,"multiSelect":true}]}');
    expect(result.kind === "errors" ? result.errors.map((error) => error.path) : null).toEqual(["questions.0.question", "questions.0"]);
  });

  it("gives the protocol's limits with their paths: a header over 100 characters, duplicate ids", () => {
    const long = readPlayground(JSON.stringify({ questions: [{ id: "a", question: "Q?", header: "h".repeat(101) }] }));
    expect(long.kind === "errors" ? long.errors.map((error) => error.path) : null).toEqual(["questions.0.header"]);
    const twice = readPlayground(JSON.stringify({ questions: [{ id: "a", question: "Q?" }, { id: "a", question: "R?" }] }));
    expect(twice.kind).toBe("errors");
    expect(readPlayground("{}").kind).toBe("errors");
  });
});
