import { describe, expect, it } from "vitest";
import type { QuestionItem } from "../../protocol/schemas";
import { createDraftState, defaultDraft, hasAnyDraft, isComplete, withDefaults, type QuestionDraft } from "./draft";
import { draftProblem, fieldInput, firstUnsendable, isServerYesNo, sendProblem } from "./field-rules";

const draft = (over: Partial<QuestionDraft>): QuestionDraft => ({ selected: [], custom: "", skipped: false, ...over });
const multi: QuestionItem = { id: "m", question: "Which?", multiSelect: true, minSelected: 2, maxSelected: 2, options: [{ label: "a" }, { label: "b" }, { label: "c" }] };

describe("draftProblem", () => {
  it("reads the input rule of non-blank text, and nothing of blank text or a skip", () => {
    const email: QuestionItem = { id: "e", question: "Email?", input: { kind: "email" } };
    expect([draftProblem(email, draft({ custom: "x" })), draftProblem(email, draft({ custom: "  " })), draftProblem(email, draft({ custom: "x", skipped: true }))]).toEqual([
      { kind: "input", problem: { rule: "email" } },
      null,
      null,
    ]);
  });

  it("counts only offered labels against the bounds, and none chosen is no problem", () => {
    expect([draftProblem(multi, draft({ selected: ["a", "gone"] })), draftProblem(multi, draft({ selected: ["a", "b", "c"] })), draftProblem(multi, draft({}))]).toEqual([
      { kind: "too-few", min: 2 },
      { kind: "too-many", max: 2 },
      null,
    ]);
  });
});

describe("sendProblem and firstUnsendable", () => {
  it("refuses a required question with no answer, wherever it stands in the batch", () => {
    const required: QuestionItem = { id: "r", question: "Name?", required: true };
    expect(sendProblem(required, draft({ skipped: true }))).toEqual({ kind: "required" });
    expect(isComplete(required, draft({ skipped: true }))).toBe(false);
    const state = withDefaults(createDraftState(), []);
    expect(firstUnsendable([{ id: "o", question: "Optional?" }, required], state)).toBe(1);
  });
});

describe("defaults", () => {
  it("pre-fills offered labels only, one for single-select with no text beside it", () => {
    const single: QuestionItem = { id: "s", question: "One?", options: [{ label: "a" }, { label: "b" }], defaults: { selected: ["gone", "b", "a"], custom: "typed" } };
    expect(defaultDraft(single)).toEqual({ selected: ["b"], custom: "", skipped: false });
    expect(defaultDraft({ ...single, defaults: { custom: "typed" }, freeText: false })).toBeNull();
    expect(defaultDraft({ ...multi, defaults: { selected: ["c", "a"], custom: "more" } })).toEqual({ selected: ["a", "c"], custom: "more", skipped: false });
  });

  it("fills only questions without a draft and does not count as something to discard", () => {
    const single: QuestionItem = { id: "s", question: "One?", options: [{ label: "a" }, { label: "b" }], defaults: { selected: ["b"] } };
    const filled = withDefaults(createDraftState(), [single]);
    expect([...filled.drafts]).toEqual([["s", { selected: ["b"], custom: "", skipped: false }]]);
    expect(hasAnyDraft([single], filled)).toBe(false);
    const drafted = { ...createDraftState(), drafts: new Map([["s", draft({ skipped: true })]]) };
    expect([...withDefaults(drafted, [single]).drafts]).toEqual([["s", draft({ skipped: true })]]);
    expect(hasAnyDraft([single], drafted)).toBe(true);
  });
});

describe("fieldInput", () => {
  it("maps every input kind to an input type and keyboard", () => {
    const kinds = ["text", "email", "url", "date", "date-time", "number", "integer"] as const;
    expect(kinds.map((kind) => fieldInput({ kind }))).toEqual([
      { type: "text", inputMode: undefined, spellCheck: true },
      { type: "email", inputMode: "email", spellCheck: false },
      { type: "url", inputMode: "url", spellCheck: false },
      { type: "date", inputMode: undefined, spellCheck: false },
      { type: "text", inputMode: undefined, spellCheck: false },
      { type: "text", inputMode: "decimal", spellCheck: false },
      { type: "text", inputMode: "numeric", spellCheck: false },
    ]);
    expect(fieldInput(undefined)).toEqual(fieldInput({ kind: "text" }));
  });
});

describe("isServerYesNo", () => {
  const yesNo: QuestionItem = { id: "b", question: "Go?", options: [{ label: "Yes" }, { label: "No" }] };
  it("holds for exactly Yes then No from an MCP server, and nothing else", () => {
    const server = { kind: "mcp-server", name: "files" } as const;
    expect([
      isServerYesNo(yesNo, server),
      isServerYesNo(yesNo, { kind: "agent", name: "Parley" }),
      isServerYesNo(yesNo, undefined),
      isServerYesNo({ ...yesNo, options: [{ label: "No" }, { label: "Yes" }] }, server),
      isServerYesNo({ ...yesNo, options: [{ label: "Yes" }, { label: "No" }, { label: "Maybe" }] }, server),
    ]).toEqual([true, false, false, false, false]);
  });
});
