import type { PendingRequest, QuestionItem } from "./schemas";

/** A request the panel shows as a plan-review decision card. */
export interface PlanReview {
  question: QuestionItem;
  plan: string;
  approveLabel: string;
  refuseLabel: string | null;
}

const MAX_PLAN_REVIEW_OPTIONS = 2;

/** The decision card applies to exactly one single-select question with a valid plan-review intent. */
export function toPlanReview(request: PendingRequest): PlanReview | null {
  if (request.questions.length !== 1) return null;
  const question = request.questions[0]!;
  const { intent, options, detail } = question;
  if (question.multiSelect || intent?.kind !== "plan-review") return null;
  if (!detail || detail.trim() === "") return null;
  if (!options || options.length === 0 || options.length > MAX_PLAN_REVIEW_OPTIONS) return null;
  if (!options.some((option) => option.label === intent.approve)) return null;
  const refuse = options.find((option) => option.label !== intent.approve);
  return { question, plan: detail, approveLabel: intent.approve, refuseLabel: refuse?.label ?? null };
}
