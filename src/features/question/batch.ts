import type { AnswerItem, QuestionItem } from "../../protocol/schemas";
import { draftOf, type DraftState } from "./draft";

function answerFor(question: QuestionItem, state: DraftState): AnswerItem {
  const draft = draftOf(state, question.id);
  const custom = draft.custom.trim() === "" || question.freeText === false ? undefined : draft.custom;
  if (draft.skipped) return { id: question.id, selected: [] };
  const labels = (question.options ?? []).map((option) => option.label);
  const chosen = labels.filter((label) => draft.selected.includes(label));
  if (!question.multiSelect) {
    if (custom !== undefined) return { id: question.id, selected: [], custom };
    return { id: question.id, selected: chosen.slice(0, 1) };
  }
  return custom === undefined ? { id: question.id, selected: chosen } : { id: question.id, selected: chosen, custom };
}

/** The `answers` array of a respond body, one item per question in question order. */
export function buildAnswers(questions: readonly QuestionItem[], state: DraftState): AnswerItem[] {
  return questions.map((question) => answerFor(question, state));
}
