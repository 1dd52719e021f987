import type { AnswerRule, RuleJudge } from "../pending/answer-rule";
import { elicitationReply } from "./elicitation-reply";

/** The rule an MCP server's form adds: the answer's content must match the server's requested schema in full. */
export function elicitationRule(requestedSchema: unknown): AnswerRule {
  return { kind: "elicitation-schema", requestedSchema };
}

/** Judges a rule `elicitation-schema`: the content the answers make must pass the server's requested schema as the server checks it. */
export const judgeElicitationSchema: RuleJudge = (rule, questions, answers) => {
  if (typeof rule.requestedSchema !== "object" || rule.requestedSchema === null) return "its requested schema is missing";
  const content = elicitationReply(rule.requestedSchema, questions, answers);
  return content.ok ? null : content.problem;
};
