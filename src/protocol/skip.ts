import type { AnswerItem } from "./questions";

/** Whether an answer item is a deliberate skip: nothing selected, no text. */
export function isSkip(answer: AnswerItem): boolean {
  return answer.selected.length === 0 && answer.custom === undefined;
}
