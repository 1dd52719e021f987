import { inputProblem, type InputProblem } from "../../protocol/answers";
import { NO_LABEL, YES_LABEL } from "../../protocol/yes-no";
import type { AnswerInput, AnswerInputKind, QuestionItem, QuestionOrigin } from "../../protocol/schemas";
import { draftOf, isAnswered, type DraftState, type QuestionDraft } from "./draft";

/**
 * Why a question's draft cannot be sent as it is, mirroring the host's answer rules
 * (docs/protocol.md, rules answer-input, question-required and the multi-select bounds), so the
 * panel refuses it before anything is sent.
 */
export type FieldProblem =
  | { kind: "input"; problem: InputProblem }
  | { kind: "too-few"; min: number }
  | { kind: "too-many"; max: number }
  | { kind: "required" };

function chosenCount(question: QuestionItem, draft: QuestionDraft): number {
  return (question.options ?? []).filter((option) => draft.selected.includes(option.label)).length;
}

/** What is wrong with what the user put into this step (the typed text, the number checked); null when nothing is. */
export function draftProblem(question: QuestionItem, draft: QuestionDraft): FieldProblem | null {
  if (draft.skipped) return null;
  if (question.input && question.freeText !== false && draft.custom.trim() !== "") {
    const problem = inputProblem(question.input, draft.custom);
    if (problem) return { kind: "input", problem };
  }
  const chosen = question.multiSelect ? chosenCount(question, draft) : 0;
  if (chosen > 0 && question.minSelected !== undefined && chosen < question.minSelected) return { kind: "too-few", min: question.minSelected };
  if (chosen > 0 && question.maxSelected !== undefined && chosen > question.maxSelected) return { kind: "too-many", max: question.maxSelected };
  return null;
}

/** Why the question cannot be sent: a draft problem, or a required question with no answer. */
export function sendProblem(question: QuestionItem, draft: QuestionDraft): FieldProblem | null {
  const problem = draftProblem(question, draft);
  if (problem) return problem;
  return question.required === true && !isAnswered(question, draft) ? { kind: "required" } : null;
}

/** Index of the first question that cannot be sent as drafted, or -1 when the whole batch can. */
export function firstUnsendable(questions: readonly QuestionItem[], state: DraftState): number {
  return questions.findIndex((question) => sendProblem(question, draftOf(state, question.id)) !== null);
}

/** The HTML input a free-text answer of this kind uses: its type and the on-screen keyboard it asks for. */
export interface FieldInput {
  type: "text" | "email" | "url" | "date";
  inputMode: "text" | "email" | "url" | "decimal" | "numeric" | undefined;
  /** Whether a spell checker helps: only for prose. */
  spellCheck: boolean;
}

const FIELD_INPUTS: Readonly<Record<AnswerInputKind, FieldInput>> = {
  text: { type: "text", inputMode: undefined, spellCheck: true },
  email: { type: "email", inputMode: "email", spellCheck: false },
  url: { type: "url", inputMode: "url", spellCheck: false },
  date: { type: "date", inputMode: undefined, spellCheck: false },
  // Not datetime-local: that picker writes no offset, and a server's date-time needs one (RFC 3339).
  "date-time": { type: "text", inputMode: undefined, spellCheck: false },
  number: { type: "text", inputMode: "decimal", spellCheck: false },
  integer: { type: "text", inputMode: "numeric", spellCheck: false },
};

export function fieldInput(input: AnswerInput | undefined): FieldInput {
  return FIELD_INPUTS[input?.kind ?? "text"];
}

/**
 * An MCP server's boolean property arrives as a single-select of exactly `Yes` and `No`
 * (docs/protocol.md, rule elicitation-mapping): the panel may show them translated; the labels
 * sent stay `Yes` and `No`.
 */
export function isServerYesNo(question: QuestionItem, origin: QuestionOrigin | undefined): boolean {
  const labels = (question.options ?? []).map((option) => option.label);
  return origin?.kind === "mcp-server" && !question.multiSelect && labels.length === 2 && labels[0] === YES_LABEL && labels[1] === NO_LABEL;
}
