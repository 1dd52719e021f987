import { AnswerItem, type AnswerInput, type QuestionItem } from "./questions";
import { isSkip } from "./skip";

export { isSkip };

/**
 * Reads a whole answer batch against its questions (docs/protocol.md, answer-rules): the items as the schema gives them
 * when every rule holds, else a sentence naming the first rule that failed.
 */
export function readAnswers(questions: readonly QuestionItem[], answers: readonly unknown[]): { answers: AnswerItem[] } | { problem: string } {
  if (answers.length !== questions.length) {
    return { problem: `expected ${questions.length} answer item(s), one per question, got ${answers.length}` };
  }
  const items: AnswerItem[] = [];
  for (let index = 0; index < questions.length; index++) {
    const question = questions[index]!;
    const parsed = AnswerItem.safeParse(answers[index]);
    if (!parsed.success) {
      return { problem: `answers[${index}] must be {id: string, selected: string[], custom?: string}` };
    }
    const problem = checkAnswerItem(question, parsed.data);
    if (problem) return { problem: `answers[${index}]: ${problem}` };
    items.push(parsed.data);
  }
  return { answers: items };
}

/** Checks a whole answer batch against its questions: null when every rule holds, else the first rule that failed. */
export function checkAnswers(questions: readonly QuestionItem[], answers: readonly unknown[]): string | null {
  const read = readAnswers(questions, answers);
  return "problem" in read ? read.problem : null;
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
  if (answer.custom !== undefined && question.freeText === false) {
    return `question "${question.id}" takes no free text`;
  }
  if (answer.custom !== undefined && question.input) {
    const problem = inputProblem(question.input, answer.custom);
    if (problem) return `question "${question.id}": ${describeInputProblem(problem)}`;
  }
  if (question.required && isSkip(answer)) return `question "${question.id}" is required and cannot be skipped`;
  if (question.multiSelect && answer.selected.length > 0) {
    if (question.minSelected !== undefined && answer.selected.length < question.minSelected) {
      return `question "${question.id}" needs at least ${question.minSelected} label(s), got ${answer.selected.length}`;
    }
    if (question.maxSelected !== undefined && answer.selected.length > question.maxSelected) {
      return `question "${question.id}" takes at most ${question.maxSelected} label(s), got ${answer.selected.length}`;
    }
  }
  if (!question.multiSelect) {
    if (answer.selected.length > 1) return `question "${question.id}" is single-select but ${answer.selected.length} labels are selected`;
    if (answer.selected.length === 1 && answer.custom !== undefined) {
      return `question "${question.id}" is single-select and cannot take both a label and custom text`;
    }
  }
  return null;
}


/** Which rule of a question's `input` a free-text answer breaks (docs/protocol.md, rule answer-input); `limit` is the bound broken. */
export type InputProblem =
  | { rule: "email" | "url" | "date" | "date-time" | "number" | "integer" }
  | { rule: "minLength" | "maxLength" | "minimum" | "maximum"; limit: number };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Reads a numeric answer the way `input` kinds number and integer do; null when the text is not one. */
export function parseNumberAnswer(text: string): number | null {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** Checks free text against a question's `input`; null when it holds. Lengths count code points, as JSON Schema does. */
export function inputProblem(input: AnswerInput, text: string): InputProblem | null {
  const value = text.trim();
  switch (input.kind) {
    case "email":
      if (!EMAIL.test(value)) return { rule: "email" };
      break;
    case "url":
      if (!URL.canParse(value) || !/^[a-z][a-z0-9+.-]*:/i.test(value)) return { rule: "url" };
      break;
    case "date":
      if (!isCalendarDate(value)) return { rule: "date" };
      break;
    case "date-time":
      if (!DATE_TIME.test(value) || !isCalendarDate(value.slice(0, 10)) || Number.isNaN(Date.parse(value))) return { rule: "date-time" };
      break;
    case "number":
    case "integer": {
      const number = parseNumberAnswer(value);
      if (number === null) return { rule: "number" };
      if (input.kind === "integer" && !Number.isInteger(number)) return { rule: "integer" };
      if (input.minimum !== undefined && number < input.minimum) return { rule: "minimum", limit: input.minimum };
      if (input.maximum !== undefined && number > input.maximum) return { rule: "maximum", limit: input.maximum };
      return null;
    }
    case "text":
      break;
  }
  const length = [...value].length;
  if (input.minLength !== undefined && length < input.minLength) return { rule: "minLength", limit: input.minLength };
  if (input.maxLength !== undefined && length > input.maxLength) return { rule: "maxLength", limit: input.maxLength };
  return null;
}

/** The host's English sentence for an input problem; the browser translates the rule instead. */
export function describeInputProblem(problem: InputProblem): string {
  switch (problem.rule) {
    case "email":
      return "the answer must be an email address";
    case "url":
      return "the answer must be a URL";
    case "date":
      return "the answer must be a date (YYYY-MM-DD)";
    case "date-time":
      return "the answer must be a date and time with a time zone (YYYY-MM-DDTHH:MM and Z or ±HH:MM)";
    case "number":
      return "the answer must be a number";
    case "integer":
      return "the answer must be a whole number";
    case "minLength":
      return `the answer must be at least ${problem.limit} characters long`;
    case "maxLength":
      return `the answer must be at most ${problem.limit} characters long`;
    case "minimum":
      return `the answer must be at least ${problem.limit}`;
    case "maximum":
      return `the answer must be at most ${problem.limit}`;
  }
}
