import type { AnswerItem, QuestionItem } from "../protocol/schemas";
import { elicitationReply } from "./mcp-client/elicitation-reply";

/**
 * A rule an ask adds to the answer rules, kept as data so that any host of a cluster, not only the one
 * that asked, can judge an answer by it before it is claimed (docs/protocol.md, elicitation-content).
 */
export type AnswerRule = { kind: "elicitation-schema"; requestedSchema: unknown };

/** The sentence that refuses these answers under `rule`, or null when they pass. */
export function ruleProblem(rule: AnswerRule, questions: readonly QuestionItem[], answers: readonly AnswerItem[]): string | null {
  const content = elicitationReply(rule.requestedSchema, questions, answers);
  return content.ok ? null : content.problem;
}

/** A rule read back from another host (a notification, a database row): the rule, or undefined when there is none. */
export function readRule(value: unknown): AnswerRule | undefined {
  if (value === null || value === undefined) return undefined;
  const rule = value as { kind?: unknown; requestedSchema?: unknown };
  if (rule.kind === "elicitation-schema" && typeof rule.requestedSchema === "object" && rule.requestedSchema !== null) return { kind: rule.kind, requestedSchema: rule.requestedSchema };
  throw new Error(`unknown answer rule ${JSON.stringify(value).slice(0, 80)}`);
}
