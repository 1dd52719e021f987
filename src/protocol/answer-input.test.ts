import { describe, expect, it } from "vitest";
import { checkAnswers, inputProblem, parseNumberAnswer } from "./answers";
import type { AnswerInput, QuestionItem } from "./schemas";

describe("free-text input kinds (docs/protocol.md, rule answer-input)", () => {
  const cases: [AnswerInput, string, ReturnType<typeof inputProblem>][] = [
    [{ kind: "email" }, "ada@example.org", null],
    [{ kind: "email" }, "ada@", { rule: "email" }],
    [{ kind: "url" }, "https://example.org/a", null],
    [{ kind: "url" }, "example.org", { rule: "url" }],
    [{ kind: "date" }, "2026-02-28", null],
    [{ kind: "date" }, "2026-02-30", { rule: "date" }],
    [{ kind: "date-time" }, "2026-02-28T10:30", { rule: "date-time" }],
    [{ kind: "date-time" }, "2026-02-28T10:30+08:00", null],
    [{ kind: "date-time" }, "2026-02-28T10:30:00Z", null],
    [{ kind: "date-time" }, "2026-02-28 10:30", { rule: "date-time" }],
    [{ kind: "number", minimum: 0, maximum: 1 }, "0.5", null],
    [{ kind: "number", minimum: 0, maximum: 1 }, "1.5", { rule: "maximum", limit: 1 }],
    [{ kind: "number" }, "1e3", null],
    [{ kind: "number" }, "12abc", { rule: "number" }],
    [{ kind: "integer", minimum: 3 }, "2", { rule: "minimum", limit: 3 }],
    [{ kind: "integer" }, "2.5", { rule: "integer" }],
    [{ kind: "text", minLength: 3 }, "ab", { rule: "minLength", limit: 3 }],
    [{ kind: "text", maxLength: 2 }, "😀😀", null],
    [{ kind: "text", maxLength: 2 }, "abc", { rule: "maxLength", limit: 2 }],
  ];
  it.each(cases)("%o with %j gives %o", (input, text, expected) => {
    expect(inputProblem(input, text)).toEqual(expected);
  });

  it("reads numbers strictly", () => {
    expect([parseNumberAnswer(" 42 "), parseNumberAnswer("-0.5"), parseNumberAnswer("0x10"), parseNumberAnswer(""), parseNumberAnswer("Infinity")]).toEqual([
      42,
      -0.5,
      null,
      null,
      null,
    ]);
  });
});

describe("protocol 2 question rules in checkAnswers", () => {
  const required: QuestionItem = { id: "name", question: "Name?", required: true, input: { kind: "text", minLength: 2 } };
  const multi: QuestionItem = {
    id: "tags",
    question: "Tags?",
    multiSelect: true,
    freeText: false,
    minSelected: 2,
    maxSelected: 2,
    options: [{ label: "a" }, { label: "b" }, { label: "c" }],
  };

  it("names the first rule that fails", () => {
    expect(checkAnswers([required], [{ id: "name", selected: [] }])).toBe('answers[0]: question "name" is required and cannot be skipped');
    expect(checkAnswers([required], [{ id: "name", selected: [], custom: "x" }])).toBe(
      'answers[0]: question "name": the answer must be at least 2 characters long',
    );
    expect(checkAnswers([multi], [{ id: "tags", selected: ["a"] }])).toBe('answers[0]: question "tags" needs at least 2 label(s), got 1');
    expect(checkAnswers([multi], [{ id: "tags", selected: ["a", "b", "c"] }])).toBe('answers[0]: question "tags" takes at most 2 label(s), got 3');
    expect(checkAnswers([multi], [{ id: "tags", selected: ["a", "b"], custom: "d" }])).toBe('answers[0]: question "tags" takes no free text');
  });

  it("accepts valid answers and an optional multi-select skipped", () => {
    expect(checkAnswers([required, multi], [{ id: "name", selected: [], custom: "Ada" }, { id: "tags", selected: [] }])).toBeNull();
    expect(checkAnswers([multi], [{ id: "tags", selected: ["c", "a"] }])).toBeNull();
  });
});
