import { z } from "zod/mini";
import { AnswerItem, type ToolCall } from "../../protocol/schemas";
import { isSkip } from "../../protocol/answers";

export const ASK_TOOL = "ask_user_question";
export const PLAN_TOOL = "present_plan";

/** What a tool row's one-line summary says. */
export type ToolSummary =
  | { state: "running" }
  | { state: "waiting" }
  | { state: "answered"; answered: number; total: number }
  | { state: "cancelled" }
  | { state: "interrupted" }
  | { state: "failed"; code: string }
  | { state: "approved" }
  | { state: "feedback" }
  | { state: "done" };

const AskResult = z.object({ answers: z.array(AnswerItem) });
const AskArgs = z.object({
  questions: z.array(z.looseObject({ id: z.string(), question: z.string(), header: z.optional(z.string()) })),
});
const PlanArgs = z.object({ plan: z.string() });

/** Parses an ask tool's result text; null when it is not the answer JSON. */
export function parseAskResult(result: string | undefined): AnswerItem[] | null {
  if (result === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(result);
  } catch {
    return null;
  }
  const parsed = AskResult.safeParse(json);
  return parsed.success ? parsed.data.answers : null;
}

function endedWithoutResult(tool: ToolCall): ToolSummary | null {
  switch (tool.status) {
    case "running":
      return null;
    case "stopped":
      return { state: "interrupted" };
    case "error": {
      const code = tool.error?.code ?? "UNKNOWN";
      if (code === "ASK_CANCELLED") return { state: "cancelled" };
      if (code === "ASK_ABORTED") return { state: "interrupted" };
      return { state: "failed", code };
    }
    case "ok":
      return null;
    default:
      tool.status satisfies never;
      return null;
  }
}

/** The summary of a tool row: `waiting`, `N/M answered` (skips not counted), `cancelled`, `interrupted`, … */
export function summariseTool(tool: ToolCall): ToolSummary {
  const ended = endedWithoutResult(tool);
  if (ended) return ended;
  const asksHuman = tool.name === ASK_TOOL || tool.name === PLAN_TOOL;
  if (tool.status === "running") return asksHuman ? { state: "waiting" } : { state: "running" };
  if (tool.name === ASK_TOOL) {
    const answers = parseAskResult(tool.result);
    if (!answers) return { state: "done" };
    return { state: "answered", answered: answers.filter((answer) => !isSkip(answer)).length, total: answers.length };
  }
  if (tool.name === PLAN_TOOL) return tool.result === "approved" ? { state: "approved" } : { state: "feedback" };
  return { state: "done" };
}

/** One question of an ask row with what the human answered. */
export interface AskedQuestion {
  id: string;
  header?: string;
  question: string;
  answer: { kind: "none" } | { kind: "skipped" } | { kind: "answered"; selected: string[]; custom?: string };
}

/** The questions of an ask row (from the model's arguments) paired with the answers of its result. */
export function askedQuestions(tool: ToolCall): AskedQuestion[] {
  const args = AskArgs.safeParse(tool.args);
  if (!args.success) return [];
  const answers = tool.status === "ok" ? (parseAskResult(tool.result) ?? []) : [];
  return args.data.questions.map((question) => {
    const answer = answers.find((item) => item.id === question.id);
    const base = { id: question.id, question: question.question, ...(question.header ? { header: question.header } : {}) };
    if (!answer) return { ...base, answer: { kind: "none" } };
    if (isSkip(answer)) return { ...base, answer: { kind: "skipped" } };
    return { ...base, answer: { kind: "answered", selected: answer.selected, ...(answer.custom !== undefined ? { custom: answer.custom } : {}) } };
  });
}

/** The plan of a plan-review row and the human's feedback when it was not approved. */
export function reviewedPlan(tool: ToolCall): { plan: string; feedback: string | null } | null {
  const args = PlanArgs.safeParse(tool.args);
  if (!args.success) return null;
  const feedback = tool.status === "ok" && tool.result !== undefined && tool.result !== "approved" ? tool.result : null;
  return { plan: args.data.plan, feedback };
}
