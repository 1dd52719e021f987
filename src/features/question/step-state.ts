import type { QuestionItem } from "../../protocol/schemas";
import { draftOf, isAnswered, type DraftState } from "./draft";

/** Where one question of a batch stands. */
export type StepState = "answered" | "skipped" | "unanswered";

export function stepState(question: QuestionItem, state: DraftState): StepState {
  const draft = draftOf(state, question.id);
  if (isAnswered(question, draft)) return "answered";
  return draft.skipped ? "skipped" : "unanswered";
}

/** A batch of two or more goes through the review step unless every question has a real answer. */
export function needsReview(questions: readonly QuestionItem[], state: DraftState): boolean {
  return questions.length > 1 && questions.some((question) => stepState(question, state) !== "answered");
}

/** The review step's index: one past the last question. */
export function reviewIndex(questions: readonly QuestionItem[]): number {
  return questions.length;
}
