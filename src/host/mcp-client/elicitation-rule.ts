import type { AnswerRule, RuleJudge } from "../pending/answer-rule";
import { elicitationReply } from "./elicitation-reply";

/** The rule an MCP server's form adds: the answer's content must match the server's requested schema in full. */
export function elicitationRule(requestedSchema: unknown): AnswerRule {
  return { kind: "elicitation-schema", requestedSchema };
}

/**
 * The judge the host gives its pending table: an elicitation's schema as the server checks it; a rule of a kind this host does not
 * know (a newer Parley's, in a rolling upgrade) refuses every answer here, so another host judges it.
 */
export const judgeAnswerRule: RuleJudge = (rule, questions, answers) => {
  if (rule.kind === "elicitation-schema" && typeof rule.requestedSchema === "object" && rule.requestedSchema !== null) {
    const content = elicitationReply(rule.requestedSchema, questions, answers);
    return content.ok ? null : content.problem;
  }
  const detail = rule.kind === "unreadable" && typeof rule.detail === "string" ? rule.detail : `its rule ${JSON.stringify(rule.kind)} is unknown here`;
  return `this host cannot check answers to this question (${detail}); answer it through another host`;
};
