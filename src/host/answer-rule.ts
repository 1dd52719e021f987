import type { AnswerItem, QuestionItem } from "../protocol/schemas";
import { elicitationReply } from "./mcp-client/elicitation-reply";

/**
 * A rule an ask adds to the answer rules, kept as data so that any host of a cluster, not only the one
 * that asked, can judge an answer by it before it is claimed (docs/protocol.md, elicitation-content).
 */
export type AnswerRule =
  | { kind: "elicitation-schema"; requestedSchema: unknown }
  /** A rule another host wrote that this one cannot read (a newer Parley in a rolling upgrade): every answer is refused here. */
  | { kind: "unreadable"; detail: string };

/** The sentence that refuses these answers under `rule`, or null when they pass. */
export function ruleProblem(rule: AnswerRule, questions: readonly QuestionItem[], answers: readonly AnswerItem[]): string | null {
  if (rule.kind === "unreadable") return `this host cannot check answers to this question (${rule.detail}); answer it through another host`;
  const content = elicitationReply(rule.requestedSchema, questions, answers);
  return content.ok ? null : content.problem;
}

/** A rule read back from another host (a notification, a database row): the rule, undefined when there is none, never a throw. */
export function readRule(value: unknown): AnswerRule | undefined {
  if (value === null || value === undefined) return undefined;
  const rule = value as { kind?: unknown; requestedSchema?: unknown };
  if (rule.kind === "elicitation-schema" && typeof rule.requestedSchema === "object" && rule.requestedSchema !== null) return { kind: rule.kind, requestedSchema: rule.requestedSchema };
  return { kind: "unreadable", detail: `its rule ${JSON.stringify(typeof rule.kind === "string" ? rule.kind : "of no kind")} is unknown here` };
}
