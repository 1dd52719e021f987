import { describe, expect, it } from "vitest";
import { checkAnswers } from "../../protocol/answers";
import { acpElicitationContent, acpElicitationQuestions, acpElicitationResponse, acpFormSchema } from "./elicitation";
import { TEST_ELICITATION_SCHEMA } from "../../testing/acp/test-agent-data";

const request = { message: "Please answer the following questions.", requestedSchema: TEST_ELICITATION_SCHEMA };

describe("ACP elicitation forms (docs/protocol.md, elicitation-mapping, acp-form)", () => {
  it("maps oneOf with descriptions, items.anyOf, and question_N_custom as that question's Other", () => {
    const mapped = acpElicitationQuestions(request);
    expect(mapped).toEqual({
      ok: true,
      questions: [
        {
          id: "question_0",
          question: "Colour",
          detail: "Please answer the following questions.\n\nWhich colour should the button be?",
          options: [
            { label: "Red", description: "Warm" },
            { label: "Blue", description: "Calm" },
          ],
        },
        {
          id: "question_1",
          question: "Sizes",
          detail: "Which sizes should it come in?",
          options: [{ label: "Small" }, { label: "Medium" }, { label: "Large" }],
          multiSelect: true,
        },
        { id: "reviewer", question: "Reviewer", detail: "Whose email should get the review?", input: { kind: "email" } },
      ],
    });
  });

  it("reads a pick into the choice property and free text into its _custom property", () => {
    const mapped = acpElicitationQuestions(request);
    if (!mapped.ok) throw new Error(mapped.reason);
    const answers = [
      { id: "question_0", selected: [], custom: " Green " },
      { id: "question_1", selected: ["Small", "Large"], custom: "XL" },
      { id: "reviewer", selected: [], custom: "ada@example.com" },
    ];
    expect(checkAnswers(mapped.questions, answers)).toBeNull();
    expect(acpElicitationContent(request, mapped.questions, answers)).toEqual({ ok: true, content: { question_0_custom: "Green", question_1: ["s", "l"], question_1_custom: "XL", reviewer: "ada@example.com" } });
    const skipped = [{ id: "question_0", selected: ["Blue"] }, { id: "question_1", selected: [] }, { id: "reviewer", selected: [] }];
    expect(acpElicitationContent(request, mapped.questions, skipped)).toEqual({ ok: true, content: { question_0: "blue" } });
  });

  it("leaves out _meta and null fields, and keeps a required choice's _custom a question of its own", () => {
    const schema = {
      type: "object",
      properties: {
        pick: { type: "string", title: null, oneOf: [{ const: "a", title: "A", _meta: { "_claude/askUserQuestionOption": { preview: "x" } } }], _meta: { any: 1 } },
        pick_custom: { type: "string", title: "Other" },
      },
      required: ["pick"],
      _meta: null,
    };
    expect(acpFormSchema(schema)).toEqual({ type: "object", properties: { pick: { type: "string", oneOf: [{ const: "a", title: "A" }] }, pick_custom: { type: "string", title: "Other" } }, required: ["pick"] });
    const mapped = acpElicitationQuestions({ message: "", requestedSchema: schema as never });
    expect(mapped.ok && mapped.questions.map((question) => question.id)).toEqual(["pick", "pick_custom"]);
  });

  it("declines what the mapping does not support", () => {
    expect(acpElicitationQuestions({ message: "m", requestedSchema: { type: "object", properties: { n: { type: "object" } } } as never })).toEqual({
      ok: false,
      reason: 'property "n": nested objects are not supported',
    });
  });

  it("answers accept, decline on dismiss, cancel when never answered", () => {
    expect(acpElicitationResponse({ kind: "answered", content: { a: 1 } })).toEqual({ action: "accept", content: { a: 1 } });
    expect(acpElicitationResponse({ kind: "dismissed" })).toEqual({ action: "decline" });
    expect(acpElicitationResponse({ kind: "aborted" })).toEqual({ action: "cancel" });
  });
});
