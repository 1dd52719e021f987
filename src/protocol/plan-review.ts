import type { AnswerItem, PendingRequest, QuestionItem } from "./schemas";

/** The id of the decision question of a plan review (docs/protocol.md, present_plan). */
export const PLAN_REVIEW_ID = "plan-review";
/** The id of the optional free-text question that carries the human's note on the plan. */
export const PLAN_NOTE_ID = "plan-note";
export const APPROVE_LABEL = "Approve";
export const KEEP_PLANNING_LABEL = "Keep planning";
/** The text `present_plan` returns when the plan is approved without a note. */
export const APPROVED_RESULT = "approved";
const NOTE_PREFIX = "approved. Note from the human: ";

/**
 * The request `present_plan` asks: the decision (single-select Approve / Keep planning, with the
 * plan as its detail and a plan-review intent), then an optional note with no options.
 */
export function planReviewQuestions(plan: string): QuestionItem[] {
  return [
    {
      id: PLAN_REVIEW_ID,
      header: "Plan review",
      question: "Approve this plan?",
      detail: plan,
      options: [{ label: APPROVE_LABEL }, { label: KEEP_PLANNING_LABEL }],
      intent: { kind: "plan-review", approve: APPROVE_LABEL },
    },
    { id: PLAN_NOTE_ID, header: "Note", question: "Anything to add?" },
  ];
}

/** A request the panel shows as a plan-review decision card. */
export interface PlanReview {
  question: QuestionItem;
  /** The optional free-text question that carries the human's note. */
  note: QuestionItem;
  plan: string;
  approveLabel: string;
  refuseLabel: string | null;
}

const MAX_PLAN_REVIEW_OPTIONS = 2;

function isNoteQuestion(question: QuestionItem): boolean {
  return (question.options ?? []).length === 0 && !question.multiSelect && question.intent === undefined;
}

/**
 * The decision card applies to a request of two questions: one single-select question with a
 * valid plan-review intent and a plan, then one optionless question for the note.
 */
export function toPlanReview(request: PendingRequest): PlanReview | null {
  if (request.questions.length !== 2) return null;
  const [question, note] = request.questions as [QuestionItem, QuestionItem];
  const { intent, options, detail } = question;
  if (question.multiSelect || intent?.kind !== "plan-review") return null;
  if (!detail || detail.trim() === "") return null;
  if (!options || options.length === 0 || options.length > MAX_PLAN_REVIEW_OPTIONS) return null;
  if (!options.some((option) => option.label === intent.approve)) return null;
  if (!isNoteQuestion(note)) return null;
  const refuse = options.find((option) => option.label !== intent.approve);
  return { question, note, plan: detail, approveLabel: intent.approve, refuseLabel: refuse?.label ?? null };
}

/** The answer to a plan review: the decision's label, and the note when one was typed (else the note is skipped). */
export function planReviewAnswers(review: PlanReview, label: string, note: string): AnswerItem[] {
  const noteAnswer: AnswerItem = note.trim() === "" ? { id: review.note.id, selected: [] } : { id: review.note.id, selected: [], custom: note };
  return [{ id: review.question.id, selected: [label] }, noteAnswer];
}

/** What `present_plan` returns for an answer to `planReviewQuestions`. */
export function planReviewResult(answers: readonly AnswerItem[]): string {
  const decision = answers.find((answer) => answer.id === PLAN_REVIEW_ID);
  const note = answers.find((answer) => answer.id === PLAN_NOTE_ID)?.custom;
  if (decision?.selected.includes(APPROVE_LABEL)) return note === undefined ? APPROVED_RESULT : NOTE_PREFIX + note;
  return note ?? decision?.custom ?? KEEP_PLANNING_LABEL;
}

/** Reads a `present_plan` result back: approved (with the human's note, if any), or the feedback. */
export function parsePlanReviewResult(text: string): { approved: true; note: string | null } | { approved: false; feedback: string } {
  if (text === APPROVED_RESULT) return { approved: true, note: null };
  if (text.startsWith(NOTE_PREFIX)) return { approved: true, note: text.slice(NOTE_PREFIX.length) };
  return { approved: false, feedback: text };
}
