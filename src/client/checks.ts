import { z } from "zod/mini";
import { QuestionRequestedFrame, Session } from "../protocol/schemas";
import { RETIRE_REASONS } from "../store/state";

// The checks of everything the host sends the app: loaded in a chunk of their own (see load-checks.ts), so the first
// screen paints without zod and the protocol's schemas, which arrive alongside the app's first requests.

export { AbortResponse, DownFrame, GrantsResponse, HealthResponse, HeartbeatFrame, MessageResponse, Receipt, SessionDetailResponse, SessionResponse } from "../protocol/schemas";

/** One page of `GET /api/sessions`. */
export const SessionsPageBody = z.object({ sessions: z.array(Session), next: z.optional(z.nullable(z.string())) });

/** One configured ACP agent as `GET /api/agents` reports it (docs/protocol.md, acp-agents). */
export const AgentInfo = z.object({
  name: z.string(),
  title: z.string(),
  state: z.string(),
  error: z.optional(z.string()),
});

/** `GET /api/agents`: the agents in file order and the folders a chat may run in. */
export const AgentsResponse = z.object({ agents: z.array(AgentInfo), workspaces: z.optional(z.array(z.string())) });

/** A retired request as a tab keeps it in its sessionStorage (app/retired-storage.ts): the request, and why it left. */
export const RetiredEntry = z.object({ request: z.omit(QuestionRequestedFrame, { type: true }), reason: z.enum(RETIRE_REASONS) });

/** A response body checked against `schema`: its data, or the sentence that says what was wrong. */
export function checkBody<Schema extends z.ZodMiniType>(schema: Schema, json: unknown): { ok: true; data: z.infer<Schema> } | { ok: false; problem: string } {
  const result = schema.safeParse(json);
  return result.success ? { ok: true, data: result.data } : { ok: false, problem: result.error.message };
}
