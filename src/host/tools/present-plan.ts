import { z } from "zod";
import { LIMITS, type QuestionItem } from "../../protocol/schemas";
import type { UserInteraction } from "../user-interaction";
import type { ToolDefinition } from "./registry";

export const APPROVE_LABEL = "Approve";
export const KEEP_PLANNING_LABEL = "Keep planning";

/** The model-facing arguments of `present_plan`. */
export const PresentPlanArgs = z.strictObject({
  plan: z.string().min(1).max(LIMITS.detailChars).describe("The plan, as markdown."),
});
export type PresentPlanArgs = z.infer<typeof PresentPlanArgs>;

/** The one question `present_plan` asks (SPEC §3). */
export function planReviewQuestion(plan: string): QuestionItem {
  return {
    id: "plan-review",
    header: "Plan review",
    question: "Approve this plan?",
    detail: plan,
    options: [{ label: APPROVE_LABEL }, { label: KEEP_PLANNING_LABEL }],
    intent: { kind: "plan-review", approve: APPROVE_LABEL },
  };
}

export function createPresentPlanTool(userInteraction: UserInteraction): ToolDefinition<PresentPlanArgs> {
  return {
    name: "present_plan",
    description:
      "Show the human your plan (markdown) and wait for a decision before acting on it. The result is `approved`, or the human's feedback on what to change.",
    args: PresentPlanArgs,
    async run(args, context) {
      const { answers } = await userInteraction.ask({ questions: [planReviewQuestion(args.plan)], sessionId: context.sessionId, signal: context.signal, onRequested: context.onRequested });
      const answer = answers[0];
      if (answer?.selected.includes(APPROVE_LABEL)) return { text: "approved", value: { approved: true } };
      const feedback = answer?.custom ?? answer?.selected[0] ?? KEEP_PLANNING_LABEL;
      return { text: feedback, value: { approved: false, feedback } };
    },
  };
}
