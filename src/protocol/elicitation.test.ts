import { describe, expect, it } from "vitest";
import { elicitationContent, elicitationContentProblem, elicitationQuestions } from "./elicitation";
import type { QuestionItem } from "./schemas";

const form = (properties: Record<string, unknown>, required?: string[]) => ({ type: "object", properties, ...(required ? { required } : {}) });

function questionsOf(schema: unknown, message?: string): QuestionItem[] {
  const mapped = elicitationQuestions(schema, message);
  if (!mapped.ok) throw new Error(mapped.reason);
  return mapped.questions;
}

describe("elicitationQuestions [elicitation-mapping]", () => {
  it("maps a boolean to a Yes/No single-select without free text, its default pre-selected", () => {
    expect(questionsOf(form({ ok: { type: "boolean", title: "Proceed?", description: "It is safe", default: false } }, ["ok"]))).toEqual([
      { id: "ok", question: "Proceed?", detail: "It is safe", options: [{ label: "Yes" }, { label: "No" }], freeText: false, required: true, defaults: { selected: ["No"] } },
    ]);
  });

  it("maps enum, oneOf and legacy enumNames to a single-select of the titles", () => {
    expect(
      questionsOf(
        form({
          plain: { type: "string", enum: ["a", "b"], default: "b" },
          titled: { type: "string", title: "Size", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }] },
          legacy: { type: "string", enum: ["eu", "us"], enumNames: ["Europe", "United States"], default: "us" },
        }),
      ),
    ).toEqual([
      { id: "plain", question: "plain", options: [{ label: "a" }, { label: "b" }], freeText: false, defaults: { selected: ["b"] } },
      { id: "titled", question: "Size", options: [{ label: "Small" }, { label: "Large" }], freeText: false },
      { id: "legacy", question: "legacy", options: [{ label: "Europe" }, { label: "United States" }], freeText: false, defaults: { selected: ["United States"] } },
    ]);
  });

  it("maps an array of enums to a multi-select bounded by minItems and maxItems", () => {
    expect(
      questionsOf(
        form({
          tags: { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["x", "y", "z"] }, default: ["y"] },
          picks: { type: "array", items: { anyOf: [{ const: "h", title: "Ham" }, { const: "e", title: "Egg" }] } },
        }),
      ),
    ).toEqual([
      { id: "tags", question: "tags", options: [{ label: "x" }, { label: "y" }, { label: "z" }], multiSelect: true, freeText: false, minSelected: 1, maxSelected: 2, defaults: { selected: ["y"] } },
      { id: "picks", question: "picks", options: [{ label: "Ham" }, { label: "Egg" }], multiSelect: true, freeText: false },
    ]);
  });

  it("maps strings and numbers to typed free-text answers with their bounds and text defaults", () => {
    expect(
      questionsOf(
        form({
          mail: { type: "string", format: "email" },
          site: { type: "string", format: "uri" },
          day: { type: "string", format: "date" },
          at: { type: "string", format: "date-time" },
          nick: { type: "string", minLength: 2, maxLength: 8, default: "ada" },
          count: { type: "integer", minimum: 1, maximum: 9, default: 3 },
          ratio: { type: "number", maximum: 1 },
        }),
      ),
    ).toEqual([
      { id: "mail", question: "mail", input: { kind: "email" } },
      { id: "site", question: "site", input: { kind: "url" } },
      { id: "day", question: "day", input: { kind: "date" } },
      { id: "at", question: "at", input: { kind: "date-time" } },
      { id: "nick", question: "nick", input: { kind: "text", minLength: 2, maxLength: 8 }, defaults: { custom: "ada" } },
      { id: "count", question: "count", input: { kind: "integer", minimum: 1, maximum: 9 }, defaults: { custom: "3" } },
      { id: "ratio", question: "ratio", input: { kind: "number", maximum: 1 } },
    ]);
  });

  it("pre-fills nothing for a blank text default", () => {
    expect(questionsOf(form({ note: { type: "string", default: "  " } }))).toEqual([{ id: "note", question: "note", input: { kind: "text" } }]);
  });

  it("leads the first question's detail with the message", () => {
    expect(questionsOf(form({ a: { type: "string" } }), "Hello")).toEqual([{ id: "a", question: "a", detail: "Hello", input: { kind: "text" } }]);
    expect(questionsOf(form({ a: { type: "string", description: "More" }, b: { type: "string" } }), "Hello")).toEqual([
      { id: "a", question: "a", detail: "Hello\n\nMore", input: { kind: "text" } },
      { id: "b", question: "b", input: { kind: "text" } },
    ]);
  });

  it("refuses what it cannot show, with the reason [elicitation-unsupported]", () => {
    const reasons = [
      form({ a: { type: "object", properties: {} } }),
      form({ a: { type: "string", pattern: "^x$" } }),
      form({ a: { type: "string", format: "ipv4" } }),
      form({ a: { type: "string", enum: ["x", "x"] } }),
      form({ a: { type: "string", enum: ["x"], default: "y" } }),
      form({ a: { type: "array", items: { type: "number" } } }),
      form({}),
      form({ a: { type: "string" } }, ["b"]),
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      "nope",
    ].map((schema) => {
      const mapped = elicitationQuestions(schema);
      return mapped.ok ? "mapped" : mapped.reason;
    });
    expect(reasons).toEqual([
      'property "a": nested objects are not supported',
      'property "a": the keyword "pattern" is not supported',
      'property "a": the format "ipv4" is not supported',
      'property "a": the option title "x" appears twice',
      'property "a": the default must be one of its options',
      'property "a".items: only string enums can be chosen from',
      "the requested schema has no properties",
      '"required" names "b", which is not a property',
      'the requested schema\'s keyword "additionalProperties" is not supported',
      "the requested schema is not an object",
    ]);
  });

  it("takes a property named constructor or prototype as any other, but requires one named like an Object.prototype member, as validators read it [own-keys]", () => {
    const schema = form({ constructor: { type: "boolean" }, prototype: { type: "string" } });
    const questions = questionsOf(schema);
    expect(questions.map(({ id, required }) => ({ id, required }))).toEqual([
      { id: "constructor", required: true },
      { id: "prototype", required: undefined },
    ]);
    const content = elicitationContent(schema, questions, [{ id: "constructor", selected: ["Yes"] }, { id: "prototype", selected: [], custom: "x" }]);
    expect(content.ok && JSON.stringify(content.content)).toBe('{"constructor":true,"prototype":"x"}');
  });

  it("refuses a property named __proto__, whose answer the server's SDK would drop, wherever it stands [elicitation-unsupported]", () => {
    for (const text of [
      '{"type":"object","properties":{"__proto__":{"type":"boolean"}}}',
      '{"type":"object","properties":{"name":{"type":"string"},"__proto__":{"type":"string"}},"required":["__proto__"]}',
    ]) {
      const schema = JSON.parse(text) as unknown;
      expect(elicitationQuestions(schema)).toEqual({ ok: false, reason: 'property "__proto__": the server\'s SDK drops a property of this name from the answer' });
      expect(elicitationContentProblem(schema, JSON.parse('{"__proto__":true}'))).toBe('property "__proto__": the server\'s SDK drops a property of this name from the answer');
    }
  });
});

describe("elicitationContent [elicitation-content]", () => {
  const schema = form(
    {
      go: { type: "boolean" },
      size: { type: "string", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }] },
      tags: { type: "array", maxItems: 2, items: { type: "string", enum: ["x", "y", "z"] } },
      mail: { type: "string", format: "email" },
      count: { type: "integer", minimum: 1 },
    },
    ["go", "mail"],
  );
  const questions = questionsOf(schema);

  it("types the answers per the schema and leaves skipped optional properties out", () => {
    expect(
      elicitationContent(schema, questions, [
        { id: "go", selected: ["Yes"] },
        { id: "size", selected: ["Large"] },
        { id: "tags", selected: ["z", "x"] },
        { id: "mail", selected: [], custom: " a@b.co " },
        { id: "count", selected: [] },
      ]),
    ).toEqual({ ok: true, content: { go: true, size: "l", tags: ["z", "x"], mail: "a@b.co" } });
  });

  it("refuses answers that break a rule, naming it, and sends nothing", () => {
    const base = [{ id: "go", selected: ["No"] }, { id: "size", selected: [] }, { id: "tags", selected: [] }, { id: "mail", selected: [], custom: "a@b.co" }, { id: "count", selected: [], custom: "2" }];
    const swap = (index: number, item: unknown) => base.map((answer, at) => (at === index ? item : answer));
    expect(elicitationContent(schema, questions, swap(3, { id: "mail", selected: [], custom: "not-an-email" }))).toEqual({
      ok: false,
      problem: 'answers[3]: question "mail": the answer must be an email address',
    });
    expect(elicitationContent(schema, questions, swap(0, { id: "go", selected: [] }))).toEqual({ ok: false, problem: 'answers[0]: question "go" is required and cannot be skipped' });
    expect(elicitationContent(schema, questions, swap(4, { id: "count", selected: [], custom: "1.5" }))).toEqual({ ok: false, problem: 'answers[4]: question "count": the answer must be a whole number' });
    expect(elicitationContent(schema, questions, swap(2, { id: "tags", selected: ["x", "y", "z"] }))).toEqual({ ok: false, problem: 'answers[2]: question "tags" takes at most 2 label(s), got 3' });
    expect(elicitationContent(schema, questions, swap(1, { id: "size", selected: [], custom: "Huge" }))).toEqual({ ok: false, problem: 'answers[1]: question "size" takes no free text' });
    expect(elicitationContent(schema, questions.slice(1), base.slice(1))).toEqual({ ok: false, problem: "the questions do not match the requested schema" });
  });

  it("checks content against the schema on its own", () => {
    expect(elicitationContentProblem(schema, { go: true, mail: "a@b.co" })).toBe(null);
    expect(elicitationContentProblem(schema, { go: "yes", mail: "a@b.co" })).toBe('"go" must be true or false');
    expect(elicitationContentProblem(schema, { go: true })).toBe('"mail" is required');
    expect(elicitationContentProblem(schema, { go: true, mail: "a@b.co", size: "m" })).toBe('"size" must be one of its options');
    expect(elicitationContentProblem(schema, { go: true, mail: "a@b.co", extra: 1 })).toBe('"extra" is not a property of the requested schema');
    expect(elicitationContentProblem(schema, { go: true, mail: "a@b.co", count: 0 })).toBe('"count" must be at least 1');
  });
});

describe("ACP additions: option descriptions and a paired Other [elicitation-mapping]", () => {
  it("keeps a titled option's description", () => {
    const result = elicitationQuestions({ type: "object", properties: { c: { type: "string", oneOf: [{ const: "r", title: "Red", description: "Warm" }] } } });
    expect(result.ok && result.questions[0]?.options).toEqual([{ label: "Red", description: "Warm" }]);
  });

  it("reads <name>_custom as <name>'s free text only when asked to, and only beside an optional choice", () => {
    const schema = { type: "object", properties: { c: { type: "string", enum: ["x", "y"] }, c_custom: { type: "string" } } };
    const plain = elicitationQuestions(schema);
    expect(plain.ok && plain.questions.map((item) => item.id)).toEqual(["c", "c_custom"]);
    const paired = elicitationQuestions(schema, undefined, { pairedOther: true });
    expect(paired.ok && paired.questions).toEqual([{ id: "c", question: "c", options: [{ label: "x" }, { label: "y" }] }]);
    if (!paired.ok) return;
    expect(elicitationContent(schema, paired.questions, [{ id: "c", selected: [], custom: "z" }], { pairedOther: true })).toEqual({ ok: true, content: { c_custom: "z" } });
    const required = elicitationQuestions({ ...schema, required: ["c"] }, undefined, { pairedOther: true });
    expect(required.ok && required.questions.map((item) => item.id)).toEqual(["c", "c_custom"]);
  });
});

