import type { AnswerItem, QuestionItem } from "../../protocol/schemas";

/**
 * A rule an ask adds to the answer rules, kept as opaque data so that any host of a cluster, not only the one that asked, can
 * judge an answer by it before it is claimed (docs/protocol.md, elicitation-content). Its `kind` names who understands it; the
 * pending table and the cluster only carry it, and run the judge they were given.
 */
export interface AnswerRule {
  kind: string;
  [detail: string]: unknown;
}

/** Judges answers by an ask's rule: the sentence that refuses them, or null when they pass. */
export type RuleJudge = (rule: AnswerRule, questions: readonly QuestionItem[], answers: readonly AnswerItem[]) => string | null;

/** A rule read back from another host (a notification, a database row): the rule, undefined when there is none, never a throw. */
export function readRule(value: unknown): AnswerRule | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "object" && !Array.isArray(value) && typeof (value as { kind?: unknown }).kind === "string") return value as AnswerRule;
  return { kind: "unreadable", detail: "its rule has no kind" };
}

/**
 * The judge a host gives its pending table, from one judge per rule kind it knows. A rule of a kind it does not know (a
 * newer Parley's, in a rolling upgrade), or one read back without a kind, refuses every answer here, so another host
 * judges it.
 */
export function judgeByKind(judges: Readonly<Record<string, RuleJudge>>): RuleJudge {
  return (rule, questions, answers) => {
    const judge = Object.hasOwn(judges, rule.kind) ? judges[rule.kind] : undefined;
    if (judge) return judge(rule, questions, answers);
    const detail = rule.kind === "unreadable" && typeof rule.detail === "string" ? rule.detail : `its rule ${JSON.stringify(rule.kind)} is unknown here`;
    return `this host cannot check answers to this question (${detail}); answer it through another host`;
  };
}
