import { describe, expect, it } from "vitest";
import type { QuestionItem } from "../protocol/schemas";
import { readRule, ruleProblem } from "./answer-rule";

const mail: QuestionItem = { id: "mail", question: "Mail", required: true, input: { kind: "email" } };
const requestedSchema = { type: "object", properties: { mail: { type: "string", format: "email" } }, required: ["mail"] };

describe("answer rules read back from another host", () => {
  it("reads an elicitation rule as it was written, and none as none", () => {
    expect([readRule({ kind: "elicitation-schema", requestedSchema }), readRule(null), readRule(undefined)]).toEqual([{ kind: "elicitation-schema", requestedSchema }, undefined, undefined]);
  });

  it("turns a rule it cannot read into one that refuses every answer with the reason, never a throw", () => {
    const unknown = readRule({ kind: "future-rule", limit: 3 });
    const kindless = readRule({ requestedSchema: 7 });
    const answers = [{ id: "mail", selected: [], custom: "a@example.com" }];
    expect([unknown, kindless, ruleProblem(unknown!, [mail], answers)]).toEqual([
      { kind: "unreadable", detail: 'its rule "future-rule" is unknown here' },
      { kind: "unreadable", detail: 'its rule "of no kind" is unknown here' },
      'this host cannot check answers to this question (its rule "future-rule" is unknown here); answer it through another host',
    ]);
    expect(ruleProblem({ kind: "elicitation-schema", requestedSchema }, [mail], answers)).toBe(null);
  });
});
