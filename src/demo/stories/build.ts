import { approvalQuestions } from "../../protocol/approval";
import { elicitationQuestions } from "../../protocol/elicitation";
import type { PendingRequest, QuestionItem, QuestionOrigin, ToolApproval } from "../../protocol/schemas";
import type { DraftState, QuestionDraft } from "../../features/question/draft";

/** The one session every story's requests belong to. */
export const DEMO_SESSION_ID = "demo-session";
export const CREATED_AT = "2026-01-15T09:30:00.000Z";

export function seed(index: number, collapsed: boolean, drafts: [string, QuestionDraft][] = []): DraftState {
  return { drafts: new Map(drafts), index, collapsed };
}

export function typed(custom: string): QuestionDraft {
  return { selected: [], custom, skipped: false };
}

export function request(rpcId: string, questions: QuestionItem[], origin?: QuestionOrigin): PendingRequest {
  return { rpcId, sessionId: DEMO_SESSION_ID, questions, createdAt: CREATED_AT, ...(origin ? { origin } : {}) };
}

/** An MCP server's tool call waiting for Allow once / Allow for this chat / Deny (docs/protocol.md approval-request). */
export function approvalRequest(rpcId: string, approval: ToolApproval): PendingRequest {
  return { ...request(rpcId, approvalQuestions(approval), { kind: "mcp-server", name: approval.server }), approval };
}

/**
 * An ACP agent's permission request as the host builds it (docs/protocol.md acp-permission): the agent's title in place of a
 * server, the tool call's title as the tool, and the agent's own options with their kinds.
 */
export function acpApprovalRequest(rpcId: string, agent: { name: string; title: string }, approval: Omit<ToolApproval, "server">): PendingRequest {
  const full: ToolApproval = { server: agent.title, ...approval };
  return { ...request(rpcId, approvalQuestions(full), { kind: "acp-agent", name: agent.name, title: agent.title }), approval: full };
}

/** An MCP server's form elicitation, mapped to questions as the host maps it (docs/protocol.md elicitation-mapping). */
export function formRequest(rpcId: string, server: string, message: string, requestedSchema: Record<string, unknown>): PendingRequest {
  const mapped = elicitationQuestions(requestedSchema, message);
  if (!mapped.ok) throw new Error(`demo form ${rpcId}: ${mapped.reason}`);
  return request(rpcId, mapped.questions, { kind: "mcp-server", name: server });
}

/** A one-property form: the smallest story of one field kind. */
export function oneField(rpcId: string, name: string, schema: Record<string, unknown>, required = false): PendingRequest {
  return formRequest(rpcId, "signup", "Finish setting up your account.", { type: "object", properties: { [name]: schema }, ...(required ? { required: [name] } : {}) });
}
