import { describe, expect, it } from "vitest";
import { PLAYGROUND_EXAMPLE, PLAYGROUND_EXAMPLES, PLAYGROUND_INPUTS, readPlayground, type PlaygroundResult } from "./playground";

const paths = (result: PlaygroundResult) => (result.kind === "errors" ? result.errors.map((error) => error.path) : null);

describe("readPlayground", () => {
  it("turns the model's arguments into the batch the panel shows", () => {
    expect(readPlayground(PLAYGROUND_EXAMPLE)).toEqual({
      kind: "request",
      parts: {
        questions: [
          { id: "pkg", header: "Tooling", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
          { id: "name", question: "What should the project be called?" },
        ],
      },
    });
    expect(readPlayground('{"questions":[{"id":"x","question":"Which?","options":[{"label":"A"},{"label":"B"}],"multi_select":true}]}')).toEqual({
      kind: "request",
      parts: { questions: [{ id: "x", question: "Which?", options: [{ label: "A" }, { label: "B" }], multiSelect: true }] },
    });
  });

  it("starts every kind of input with an example that is valid", () => {
    for (const input of PLAYGROUND_INPUTS) expect(readPlayground(PLAYGROUND_EXAMPLES[input], input).kind, input).toBe("request");
  });

  it("names text that is not JSON", () => {
    expect(paths(readPlayground("{questions"))).toEqual([""]);
  });

  it("gives every shape error with its path, including keys the tool does not take", () => {
    const result = readPlayground('{"questions":[{"id":"a","question":1,"multiSelect":true}]}');
    expect(paths(result)).toEqual(["questions.0.question", "questions.0"]);
  });

  it("lists every problem at once, shape and protocol limits together, not the first alone", () => {
    const args = {
      questions: [
        { id: "a", question: "Ship?", header: "h".repeat(101), options: [{ label: "Yes" }, { label: "Yes" }] },
        { id: "a", question: 2 },
      ],
    };
    expect(paths(readPlayground(JSON.stringify(args)))).toEqual(["questions.1.question", "questions.0.header", "questions.0.options.1.label", "questions.1.id"]);
    expect(readPlayground("{}").kind).toBe("errors");
  });

  it("maps an MCP form to the questions the host asks, asked by the server, with the message first", () => {
    const result = readPlayground(PLAYGROUND_EXAMPLES.form, "form");
    expect(result.kind === "request" ? result.parts.origin : null).toEqual({ kind: "mcp-server", name: "signup" });
    expect(result.kind === "request" ? result.parts.questions.map((question) => [question.id, question.input?.kind]) : null).toEqual([
      ["email", "email"],
      ["seats", "integer"],
    ]);
  });

  it("lists the problem of every property of a form with its path, and the schema's own", () => {
    const form = {
      message: "Hi",
      requestedSchema: {
        type: "object",
        properties: { a: { type: "string", format: "hostname" }, b: { type: "integer", minimum: 5, maximum: 1 }, c: { type: "string" }, d: { type: "object" } },
        required: ["c", "nope"],
      },
    };
    const result = readPlayground(JSON.stringify(form), "form");
    expect(paths(result)).toEqual(["requestedSchema.properties.a", "requestedSchema.properties.b", "requestedSchema.properties.d", "requestedSchema"]);
    expect(result.kind === "errors" ? result.errors[0]!.message : null).toBe('the format "hostname" is not supported');
  });

  it("reads a tool call to approve, with arguments as a value or as JSON text", () => {
    const result = readPlayground('{"server":"files","tool":"delete","arguments":{"path":"/tmp"}}', "approval");
    expect(result.kind === "request" ? result.parts.approval : null).toEqual({ server: "files", tool: "delete", arguments: '{"path":"/tmp"}' });
    expect(result.kind === "request" ? result.parts.questions.map((question) => question.id) : null).toEqual(["approval", "approval-reason"]);
    expect(paths(readPlayground('{"server":"","tool":3}', "approval"))).toEqual(["server", "tool"]);
    const destructive = readPlayground('{"server":"files","tool":"delete","destructive":true}', "approval");
    expect(destructive.kind === "request" ? destructive.parts.approval : null).toEqual({ server: "files", tool: "delete", arguments: "{}", destructive: true });
  });

  it("lists a form's shape problems and its properties' problems together", () => {
    const form = { server: 5, requestedSchema: { type: "object", properties: { a: { type: "string", format: "hostname" }, c: { type: "string" } } } };
    expect(paths(readPlayground(JSON.stringify(form), "form"))).toEqual(["server", "requestedSchema.properties.a"]);
  });
});
