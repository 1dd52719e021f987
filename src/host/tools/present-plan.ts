import { z } from "zod";
import { LIMITS, type AnswerItem } from "../../protocol/schemas";
import { APPROVE_LABEL, APPROVED_RESULT, PLAN_NOTE_ID, PLAN_REVIEW_ID, planReviewQuestions, planReviewResult } from "../../protocol/plan-review";
import type { UserInteraction } from "../pending/user-interaction";
import type { ToolDefinition, ToolResult } from "./registry";

/** The model-facing arguments of `present_plan`. */
export const PresentPlanArgs = z.strictObject({
  plan: z.string().min(1).max(LIMITS.detailChars).describe("The plan, as markdown."),
});
export type PresentPlanArgs = z.infer<typeof PresentPlanArgs>;

/**
 * `present_plan` asks the two questions of `planReviewQuestions` and returns `approved`,
 * `approved. Note from the human: <note>`, or the feedback (the note, else `Keep planning`).
 */
export function createPresentPlanTool(userInteraction: UserInteraction): ToolDefinition<PresentPlanArgs> {
  return {
    name: "present_plan",
    description: `Show the human your plan (markdown) and wait for a decision before acting on it. The result is \`${APPROVED_RESULT}\` (possibly followed by a note from the human to take into account), or the human's feedback on what to change.`,
    args: PresentPlanArgs,
    async run(args, context) {
      const { answers } = await userInteraction.ask({ questions: planReviewQuestions(args.plan), sessionId: context.sessionId, signal: context.signal, onRequested: context.onRequested, origin: context.origin, messageId: context.messageId });
      return planResult(answers);
    },
    answered: (_args, answers) => planResult(answers),
  };
}

function planResult(answers: AnswerItem[]): ToolResult {
  const approved = answers.find((answer) => answer.id === PLAN_REVIEW_ID)?.selected.includes(APPROVE_LABEL) === true;
  const note = answers.find((answer) => answer.id === PLAN_NOTE_ID)?.custom;
  const text = planReviewResult(answers);
  const value = approved ? { approved, ...(note === undefined ? {} : { note }) } : { approved, feedback: text };
  const outcome = approved ? { kind: "approved" as const, ...(note === undefined ? {} : { note }) } : { kind: "revise" as const, feedback: text };
  return { text, value, outcome };
}
