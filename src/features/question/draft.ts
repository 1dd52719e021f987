import type { QuestionItem } from "../../protocol/schemas";

/** What the user has drafted for one question. */
export interface QuestionDraft {
  selected: string[];
  custom: string;
  skipped: boolean;
}

/**
 * The whole wizard's draft for one request. Drafts are keyed by question id, a model-written
 * string, so they live in a Map: an id such as `constructor` or `__proto__` reads nothing inherited.
 * `index` is the current step: a question, or `questions.length` for the review step.
 */
export interface DraftState {
  drafts: ReadonlyMap<string, QuestionDraft>;
  index: number;
  collapsed: boolean;
}

export const EMPTY_QUESTION_DRAFT: QuestionDraft = Object.freeze({ selected: [], custom: "", skipped: false }) as QuestionDraft;

export function createDraftState(): DraftState {
  return { drafts: new Map(), index: 0, collapsed: false };
}

export function draftOf(state: DraftState, questionId: string): QuestionDraft {
  return state.drafts.get(questionId) ?? EMPTY_QUESTION_DRAFT;
}

function withDraft(state: DraftState, questionId: string, draft: QuestionDraft): DraftState {
  const drafts = new Map(state.drafts);
  drafts.set(questionId, draft);
  return { ...state, drafts };
}

function hasOption(question: QuestionItem, label: string): boolean {
  return (question.options ?? []).some((option) => option.label === label);
}

/** Single-select: picks the label and clears the text. Multi-select: sets the label's checked state. */
export function chooseOption(state: DraftState, question: QuestionItem, label: string, checked = true): DraftState {
  if (!hasOption(question, label)) return state;
  const draft = draftOf(state, question.id);
  if (!question.multiSelect) {
    return withDraft(state, question.id, { selected: [label], custom: "", skipped: false });
  }
  const without = draft.selected.filter((selected) => selected !== label);
  const selected = checked ? [...without, label] : without;
  return withDraft(state, question.id, { ...draft, selected, skipped: false });
}

/** Flips one option of a multi-select question; on a single-select question it chooses it. */
export function toggleOption(state: DraftState, question: QuestionItem, label: string): DraftState {
  if (!question.multiSelect) return chooseOption(state, question, label);
  return chooseOption(state, question, label, !draftOf(state, question.id).selected.includes(label));
}

/** Sets the custom text; for a single-select question any non-blank text clears the chosen option. */
export function typeCustom(state: DraftState, question: QuestionItem, custom: string): DraftState {
  const draft = draftOf(state, question.id);
  const selected = !question.multiSelect && custom.trim() !== "" ? [] : draft.selected;
  return withDraft(state, question.id, { selected, custom, skipped: false });
}

/** Clears only this question's draft and marks it skipped. */
export function skipQuestion(state: DraftState, question: QuestionItem): DraftState {
  return withDraft(state, question.id, { selected: [], custom: "", skipped: true });
}

export function goToQuestion(state: DraftState, index: number, count: number): DraftState {
  const clamped = Math.max(0, Math.min(count - 1, Math.trunc(index)));
  return clamped === state.index ? state : { ...state, index: clamped };
}

export function setCollapsed(state: DraftState, collapsed: boolean): DraftState {
  return state.collapsed === collapsed ? state : { ...state, collapsed };
}

/** A real answer: a valid option chosen or non-blank text. */
export function isAnswered(question: QuestionItem, draft: QuestionDraft): boolean {
  return draft.selected.some((label) => hasOption(question, label)) || draft.custom.trim() !== "";
}

/** Answered, or skipped where skipping is allowed: a required question cannot be skipped (rule question-required). */
export function isComplete(question: QuestionItem, draft: QuestionDraft): boolean {
  return (draft.skipped && question.required !== true) || isAnswered(question, draft);
}

/** Index of the first question neither answered nor skipped, or -1 when all are complete. */
export function firstIncomplete(questions: readonly QuestionItem[], state: DraftState): number {
  return questions.findIndex((question) => !isComplete(question, draftOf(state, question.id)));
}

/**
 * The draft a question's `defaults` pre-fill (docs/protocol.md, rule question-defaults): labels that are
 * options (one for single-select, which then takes no text), text only where free text is offered;
 * null when they pre-fill nothing.
 */
export function defaultDraft(question: QuestionItem): QuestionDraft | null {
  const defaults = question.defaults;
  if (!defaults) return null;
  const offered = (question.options ?? []).map((option) => option.label);
  const wanted = (defaults.selected ?? []).filter((label) => offered.includes(label));
  // Multi-select keeps option order, as a user's checks do; single-select takes the first default offered.
  const selected = question.multiSelect ? offered.filter((label) => wanted.includes(label)) : wanted.slice(0, 1);
  const text = question.freeText === false ? "" : (defaults.custom ?? "");
  const custom = !question.multiSelect && selected.length > 0 ? "" : text;
  if (selected.length === 0 && custom.trim() === "") return null;
  return { selected, custom, skipped: false };
}

/** Whether the draft still holds exactly what the question's defaults pre-filled. */
export function isDefaultDraft(question: QuestionItem, draft: QuestionDraft): boolean {
  const prefill = defaultDraft(question);
  if (!prefill || draft.skipped || draft.custom !== prefill.custom || draft.selected.length !== prefill.selected.length) return false;
  return prefill.selected.every((label) => draft.selected.includes(label));
}

/** Pre-fills every question that has defaults and no draft yet; a draft the user made always wins. */
export function withDefaults(state: DraftState, questions: readonly QuestionItem[]): DraftState {
  let next = state;
  for (const question of questions) {
    if (next.drafts.has(question.id)) continue;
    const prefill = defaultDraft(question);
    if (prefill) next = withDraft(next, question.id, prefill);
  }
  return next;
}

/** Whether the user has put anything into the draft worth confirming before discarding; pre-filled defaults are not. */
export function hasAnyDraft(questions: readonly QuestionItem[], state: DraftState): boolean {
  return questions.some((question) => {
    const draft = draftOf(state, question.id);
    if (isDefaultDraft(question, draft)) return false;
    return draft.skipped || draft.selected.length > 0 || draft.custom.trim() !== "";
  });
}
