import { AnswerItem, type QuestionItem } from "./schemas";

/**
 * Checks a whole answer batch against its questions (docs/protocol.md, answer-rules).
 * Returns null when every rule holds, else a sentence naming the first rule that failed.
 */
export function checkAnswers(questions: readonly QuestionItem[], answers: readonly unknown[]): string | null {
  if (answers.length !== questions.length) {
    return `expected ${questions.length} answer item(s), one per question, got ${answers.length}`;
  }
  for (let index = 0; index < questions.length; index++) {
    const question = questions[index]!;
    const parsed = AnswerItem.safeParse(answers[index]);
    if (!parsed.success) {
      return `answers[${index}] must be {id: string, selected: string[], custom?: string}`;
    }
    const problem = checkAnswerItem(question, parsed.data);
    if (problem) return `answers[${index}]: ${problem}`;
  }
  return null;
}

function checkAnswerItem(question: QuestionItem, answer: AnswerItem): string | null {
  if (answer.id !== question.id) {
    return `id "${answer.id}" does not match question "${question.id}" at this position`;
  }
  const labels = new Set((question.options ?? []).map((option) => option.label));
  const chosen = new Set<string>();
  for (const label of answer.selected) {
    if (chosen.has(label)) return `label "${label}" is selected twice`;
    chosen.add(label);
    if (!labels.has(label)) return `"${label}" is not an option of question "${question.id}"`;
  }
  if (answer.custom !== undefined && answer.custom.trim() === "") {
    return "custom text is blank";
  }
  if (!question.multiSelect) {
    if (answer.selected.length > 1) return `question "${question.id}" is single-select but ${answer.selected.length} labels are selected`;
    if (answer.selected.length === 1 && answer.custom !== undefined) {
      return `question "${question.id}" is single-select and cannot take both a label and custom text`;
    }
  }
  return null;
}

/** Whether an answer item is a deliberate skip: nothing selected, no text. */
export function isSkip(answer: AnswerItem): boolean {
  return answer.selected.length === 0 && answer.custom === undefined;
}
