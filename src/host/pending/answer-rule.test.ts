import { describe, expect, it } from "vitest";
import type { QuestionItem } from "../../protocol/schemas";
import { readRule } from "./answer-rule";
import { judgeAnswerRule } from "../answer-judge";

const mail: QuestionItem = { id: "mail", question: "Mail", required: true, input: { kind: "email" } };
const requestedSchema = { type: "object", properties: { mail: { type: "string", format: "email" } }, required: ["mail"] };

describe("answer rules read back from another host", () => {
  it("reads a rule as it was written, and none as none", () => {
    expect([readRule({ kind: "elicitation-schema", requestedSchema }), readRule(null), readRule(undefined)]).toEqual([{ kind: "elicitation-schema", requestedSchema }, undefined, undefined]);
  });

  it("keeps a rule of a kind it does not know as data, which the host's judge refuses with the reason, never a throw", () => {
    const unknown = readRule({ kind: "future-rule", limit: 3 });
    const kindless = readRule({ requestedSchema: 7 });
    const answers = [{ id: "mail", selected: [], custom: "a@example.com" }];
    expect([unknown, kindless, judgeAnswerRule(unknown!, [mail], answers), judgeAnswerRule(kindless!, [mail], answers)]).toEqual([
      { kind: "future-rule", limit: 3 },
      { kind: "unreadable", detail: "its rule has no kind" },
      'this host cannot check answers to this question (its rule "future-rule" is unknown here); answer it through another host',
      "this host cannot check answers to this question (its rule has no kind); answer it through another host",
    ]);
    expect(judgeAnswerRule({ kind: "elicitation-schema", requestedSchema }, [mail], answers)).toBe(null);
  });

  it("judges an ACP form's rule by the content the form takes, formats included", () => {
    const rule = { kind: "acp-form-schema", requestedSchema };
    const answer = (custom: string) => [{ id: "mail", selected: [], custom }];
    expect(judgeAnswerRule(rule, [mail], answer("a@example.com"))).toBe(null);
    expect(judgeAnswerRule(rule, [mail], answer("josé@example.com"))).toBe("\"mail\" must be an email address (letters, digits and !#$%&'*+/=?^_`{|}~- before the @)");
  });
});
