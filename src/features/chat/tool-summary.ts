import type { AnswerItem, ToolCall, ToolError } from "../../protocol/schemas";
import { isSkip } from "../../protocol/skip";
import { TOOL_NAMES } from "../../protocol/tool-names";

export const ASK_TOOL = TOOL_NAMES.askUserQuestion;
export const PLAN_TOOL = TOOL_NAMES.presentPlan;

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
  | { state: "awaiting-approval" }
  | { state: "denied" }
  | { state: "done" };

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);

/** The questions of an ask call's arguments as the row shows them, or null when the model sent something else. */
function askArgs(args: unknown): { id: string; question: string; header?: string }[] | null {
  if (!isFields(args) || !Array.isArray(args.questions)) return null;
  const questions: { id: string; question: string; header?: string }[] = [];
  for (const item of args.questions as unknown[]) {
    if (!isFields(item) || typeof item.id !== "string" || typeof item.question !== "string") return null;
    if (item.header !== undefined && typeof item.header !== "string") return null;
    questions.push({ id: item.id, question: item.question, ...(item.header !== undefined ? { header: item.header } : {}) });
  }
  return questions;
}

/** The answers of a finished ask row, from its outcome data (docs/protocol.md, tool-outcome); null when it has none. */
export function askAnswers(tool: ToolCall): AnswerItem[] | null {
  return tool.outcome?.kind === "answered" ? tool.outcome.answers : null;
}

function endedWithoutResult(tool: ToolCall): ToolSummary | null {
  switch (tool.status) {
    case "running":
      return null;
    case "stopped":
      return tool.error?.code === "TOOL_DENIED" ? { state: "denied" } : { state: "interrupted" };
    case "error": {
      const code = tool.error?.code ?? "UNKNOWN";
      if (code === "ASK_CANCELLED") return { state: "cancelled" };
      if (code === "ASK_ABORTED") return { state: "interrupted" };
      if (code === "TOOL_DENIED") return { state: "denied" };
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
  if (tool.status === "running") return asksHuman ? { state: "waiting" } : tool.mcp?.approval === "asking" ? { state: "awaiting-approval" } : { state: "running" };
  const outcome = tool.outcome;
  switch (outcome?.kind) {
    case "answered":
      return { state: "answered", answered: outcome.answers.filter((answer) => !isSkip(answer)).length, total: outcome.answers.length };
    case "approved":
      return { state: "approved" };
    case "revise":
      return { state: "feedback" };
    case "mcp-result":
    case undefined:
      return { state: "done" };
    default:
      return outcome satisfies never;
  }
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
  const questions = askArgs(tool.args);
  if (questions === null) return [];
  const answers = askAnswers(tool) ?? [];
  return questions.map((question) => {
    const answer = answers.find((item) => item.id === question.id);
    const base = { id: question.id, question: question.question, ...(question.header ? { header: question.header } : {}) };
    if (!answer) return { ...base, answer: { kind: "none" } };
    if (isSkip(answer)) return { ...base, answer: { kind: "skipped" } };
    return { ...base, answer: { kind: "answered", selected: answer.selected, ...(answer.custom !== undefined ? { custom: answer.custom } : {}) } };
  });
}

/** The plan of a plan-review row, the human's feedback when it was not approved, and the note sent with an approval. */
export function reviewedPlan(tool: ToolCall): { plan: string; feedback: string | null; note: string | null } | null {
  const args = tool.args;
  if (!isFields(args) || typeof args.plan !== "string") return null;
  const feedback = tool.outcome?.kind === "revise" ? tool.outcome.feedback : null;
  const note = tool.outcome?.kind === "approved" ? (tool.outcome.note ?? null) : null;
  return { plan: args.plan, feedback, note };
}

/** The arguments of a call as the transcript shows them: JSON indented by two spaces. */
export function prettyArgs(tool: ToolCall): string {
  return JSON.stringify(tool.args, null, 2);
}

/** A call that failed before anything was asked: the error the model received; null for any other row. */
export function rejectedCall(tool: ToolCall): ToolError | null {
  return endedWithoutResult(tool)?.state === "failed" && tool.error ? tool.error : null;
}
