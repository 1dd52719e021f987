import type { CreateElicitationRequest, CreateElicitationResponse } from "@agentclientprotocol/sdk";
import { elicitationContent, elicitationQuestions, type ElicitationContentResult, type ElicitationQuestions } from "../../protocol/elicitation";
import type { QuestionItem } from "../../protocol/schemas";
import { isRecord } from "../../protocol/elicitation-field";
import type { AnswerRule, RuleJudge } from "../pending/answer-rule";

type FormRequest = Pick<Extract<CreateElicitationRequest, { mode: "form" }>, "message" | "requestedSchema">;

/** ACP's form mapping: the MCP one, with `<name>_custom` read as that question's "Other". */
const ACP_MAPPING = { pairedOther: true } as const;

/**
 * The requested schema as the shared mapping reads it: `_meta` (ACP's extension slot, e.g. an option's
 * preview) and null fields (ACP's "absent") are left out at every level; everything else is kept, so
 * the mapping still declines what it does not support.
 */
export function acpFormSchema(requestedSchema: unknown): unknown {
  if (Array.isArray(requestedSchema)) return requestedSchema.map(acpFormSchema);
  if (!isRecord(requestedSchema)) return requestedSchema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(requestedSchema)) {
    if (key === "_meta" || value === null || value === undefined) continue;
    Object.defineProperty(out, key, { value: acpFormSchema(value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The questions of an ACP form (`elicitation/create`, mode form); `ok: false` with the reason to decline it. */
export function acpElicitationQuestions(request: FormRequest): ElicitationQuestions {
  return elicitationQuestions(acpFormSchema(request.requestedSchema), request.message, ACP_MAPPING);
}

/** Reads accepted answers back into the content of `{action: "accept"}`, checked against the schema. */
export function acpElicitationContent(request: { requestedSchema: unknown }, questions: readonly QuestionItem[], answers: readonly unknown[]): ElicitationContentResult {
  return elicitationContent(acpFormSchema(request.requestedSchema), questions, answers, ACP_MAPPING);
}

/** The rule an ACP form adds to its ask: the pending table refuses answers whose content the form would not accept. */
export function acpFormRule(request: { requestedSchema: unknown }): AnswerRule {
  return { kind: "acp-form-schema", requestedSchema: request.requestedSchema };
}

/** Judges a rule `acp-form-schema`: the answers must read back into content the form takes (acpElicitationContent). */
export const judgeAcpForm: RuleJudge = (rule, questions, answers) => {
  const content = acpElicitationContent({ requestedSchema: rule.requestedSchema }, questions, answers);
  return content.ok ? null : content.problem;
};

/** How the human's side of an ACP form ended. */
export type ElicitationEnd = { kind: "answered"; content: Record<string, string | number | boolean | string[]> } | { kind: "dismissed" } | { kind: "aborted" };

/** The response for the agent: accept with the content, decline when dismissed (ASK_CANCELLED), cancel when never answered (Stop, turn end, exit). */
export function acpElicitationResponse(end: ElicitationEnd): CreateElicitationResponse {
  switch (end.kind) {
    case "answered":
      return { action: "accept", content: end.content };
    case "dismissed":
      return { action: "decline" };
    case "aborted":
      return { action: "cancel" };
  }
}
