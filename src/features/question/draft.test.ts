import { describe, expect, it } from "vitest";
import type { QuestionItem } from "../../protocol/schemas";
import {
  chooseOption,
  createDraftState,
  draftOf,
  firstIncomplete,
  goToQuestion,
  hasAnyDraft,
  isAnswered,
  isComplete,
  setCollapsed,
  skipQuestion,
  toggleOption,
  typeCustom,
} from "./draft";
import { multi, open, single } from "./testing/draft-questions";

const questions = [single, open, multi];

describe("draft transitions", () => {
  it("starts empty at the first question, expanded", () => {
    expect(createDraftState()).toEqual({ drafts: new Map(), index: 0, collapsed: false });
  });

  it("replaces the single-select choice and clears its custom text", () => {
    let state = typeCustom(createDraftState(), single, "yarn");
    state = chooseOption(state, single, "npm");
    state = chooseOption(state, single, "pnpm (Recommended)");
    expect(draftOf(state, "pkg")).toEqual({ selected: ["pnpm (Recommended)"], custom: "", skipped: false });
  });

  it("clears the single-select choice when text is typed", () => {
    const state = typeCustom(chooseOption(createDraftState(), single, "npm"), single, "bun");
    expect(draftOf(state, "pkg")).toEqual({ selected: [], custom: "bun", skipped: false });
  });

  it("keeps the single-select choice while the typed text is only whitespace", () => {
    const state = typeCustom(chooseOption(createDraftState(), single, "npm"), single, "  ");
    expect(draftOf(state, "pkg")).toEqual({ selected: ["npm"], custom: "  ", skipped: false });
  });

  it("toggles multi-select labels and keeps custom text alongside", () => {
    let state = typeCustom(createDraftState(), multi, "biome");
    state = toggleOption(state, multi, "eslint");
    state = toggleOption(state, multi, "vitest");
    state = toggleOption(state, multi, "eslint");
    expect(draftOf(state, "tools")).toEqual({ selected: ["vitest"], custom: "biome", skipped: false });
  });

  it("sets an explicit checked state on a multi-select label without duplicating it", () => {
    let state = chooseOption(createDraftState(), multi, "prettier", true);
    state = chooseOption(state, multi, "prettier", true);
    expect(draftOf(state, "tools").selected).toEqual(["prettier"]);
    state = chooseOption(state, multi, "prettier", false);
    expect(draftOf(state, "tools").selected).toEqual([]);
  });

  it("ignores a label that is not an option of the question", () => {
    const state = createDraftState();
    expect(chooseOption(state, single, "yarn")).toBe(state);
  });

  it("keeps other drafts when one question is skipped", () => {
    let state = chooseOption(createDraftState(), single, "npm");
    state = typeCustom(state, open, "parley");
    state = skipQuestion(state, open);
    expect(state.drafts).toEqual(
      new Map([
        ["pkg", { selected: ["npm"], custom: "", skipped: false }],
        ["name", { selected: [], custom: "", skipped: true }],
      ]),
    );
  });

  it("unmarks a skip once the question is answered again", () => {
    const state = chooseOption(skipQuestion(createDraftState(), single), single, "npm");
    expect(draftOf(state, "pkg")).toEqual({ selected: ["npm"], custom: "", skipped: false });
  });

  it("clamps the current index to the batch", () => {
    const state = createDraftState();
    expect(goToQuestion(state, 2, 3).index).toBe(2);
    expect(goToQuestion(state, 7, 3).index).toBe(2);
    expect(goToQuestion(state, -1, 3).index).toBe(0);
  });

  it("collapses and expands", () => {
    expect(setCollapsed(createDraftState(), true).collapsed).toBe(true);
    expect(setCollapsed(setCollapsed(createDraftState(), true), false).collapsed).toBe(false);
  });
});

describe("question ids that name Object.prototype members", () => {
  const HOSTILE_IDS = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"];
  const hostile: QuestionItem[] = HOSTILE_IDS.map((id) => ({ id, question: `Question ${id}?`, options: [{ label: "Yes" }, { label: "No" }] }));

  it("reads an empty draft for every such id before anything is drafted", () => {
    const state = createDraftState();
    for (const id of HOSTILE_IDS) expect(draftOf(state, id)).toEqual({ selected: [], custom: "", skipped: false });
    expect(firstIncomplete(hostile, state)).toBe(0);
    expect(hasAnyDraft(hostile, state)).toBe(false);
  });

  it("drafts, skips and completes each such id on its own", () => {
    let state = createDraftState();
    hostile.forEach((question, index) => {
      state = index % 2 === 0 ? chooseOption(state, question, "Yes") : typeCustom(state, question, `text for ${question.id}`);
    });
    state = skipQuestion(state, hostile[1]!);
    expect([...state.drafts]).toEqual([
      ["constructor", { selected: ["Yes"], custom: "", skipped: false }],
      ["toString", { selected: [], custom: "", skipped: true }],
      ["__proto__", { selected: ["Yes"], custom: "", skipped: false }],
      ["hasOwnProperty", { selected: [], custom: "text for hasOwnProperty", skipped: false }],
      ["valueOf", { selected: ["Yes"], custom: "", skipped: false }],
      ["__defineGetter__", { selected: [], custom: "text for __defineGetter__", skipped: false }],
      ["isPrototypeOf", { selected: ["Yes"], custom: "", skipped: false }],
    ]);
    expect(firstIncomplete(hostile, state)).toBe(-1);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(Object.prototype).not.toHaveProperty("selected");
  });
});

describe("answered and complete", () => {
  it("treats whitespace-only text as no answer", () => {
    const state = typeCustom(createDraftState(), open, "  \n ");
    expect(isAnswered(open, draftOf(state, "name"))).toBe(false);
    expect(isComplete(open, draftOf(state, "name"))).toBe(false);
  });

  it("counts a skip as complete but not answered", () => {
    const draft = draftOf(skipQuestion(createDraftState(), single), "pkg");
    expect(isAnswered(single, draft)).toBe(false);
    expect(isComplete(single, draft)).toBe(true);
  });

  it("finds the first question neither answered nor skipped", () => {
    let state = chooseOption(createDraftState(), single, "npm");
    expect(firstIncomplete(questions, state)).toBe(1);
    state = skipQuestion(state, open);
    expect(firstIncomplete(questions, state)).toBe(2);
    state = toggleOption(state, multi, "eslint");
    expect(firstIncomplete(questions, state)).toBe(-1);
  });

  it("reports whether anything has been drafted", () => {
    expect(hasAnyDraft(questions, createDraftState())).toBe(false);
    expect(hasAnyDraft(questions, typeCustom(createDraftState(), open, "x"))).toBe(true);
    expect(hasAnyDraft(questions, skipQuestion(createDraftState(), multi))).toBe(true);
    expect(hasAnyDraft(questions, goToQuestion(createDraftState(), 2, 3))).toBe(false);
  });
});
