import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod/mini";
import { elicitationQuestions } from "../../protocol/elicitation";
import type { Logger } from "../log";
import type { AskRequest, AskResult } from "../pending/user-interaction";
import type { Connection } from "./connection";
import { elicitationReply } from "./elicitation-reply";
import { elicitationRule } from "./elicitation-rule";

// A loose `elicitation/create`: the SDK's own schema would refuse unsupported forms before we could decline them.
const LooseElicitRequest = z.object({
  method: z.literal("elicitation/create"),
  params: z.optional(z.looseObject({ mode: z.optional(z.string()), message: z.optional(z.string()), requestedSchema: z.optional(z.unknown()) })),
});
type LooseElicitRequest = z.infer<typeof LooseElicitRequest>;

export interface ElicitationContext {
  log: Logger;
  /** The seam (McpToolsOptions.ask). */
  ask(request: AskRequest): Promise<AskResult>;
  /** Aborted at shutdown: an open elicitation is then cancelled. */
  shutdown: AbortSignal;
}

/**
 * Answers a server's `elicitation/create` (docs/protocol.md, elicitation-*): a form asked through the seam as the one chat
 * whose call of that server is in flight, named as from that server, with the requested schema as its rule; the answers
 * come back as `accept` with typed content, a dismissal as `decline`, anything else as `cancel`. A URL form, no single
 * asking chat, or a schema outside the mapping is declined.
 */
export function handleElicitations(client: Client, connection: Connection, context: ElicitationContext, track: (handled: Promise<ElicitResult>) => void): void {
  // Protocol's registration, not Client's: Client's wrapper answers unsupported forms with an error instead of a decline.
  Protocol.prototype.setRequestHandler.call(client, LooseElicitRequest, (request: LooseElicitRequest, extra: { signal: AbortSignal }) => {
    const handled = handleElicitation(context, connection, request, extra.signal);
    track(handled);
    return handled;
  });
}

function decline(context: ElicitationContext, connection: Connection, reason: string): ElicitResult {
  context.log({ event: "mcp/elicitation-declined", server: connection.config.name, reason });
  return { action: "decline" };
}

async function handleElicitation(context: ElicitationContext, connection: Connection, request: LooseElicitRequest, requestSignal: AbortSignal): Promise<ElicitResult> {
  const { log } = context;
  const server = connection.config.name;
  const params = request.params ?? {};
  const mode = params.mode ?? "form";
  if (mode !== "form") return decline(context, connection, `the ${mode} mode is not supported`);
  const sessions = new Set([...connection.inFlight].map((call) => call.sessionId));
  if (sessions.size !== 1) return decline(context, connection, sessions.size === 0 ? "no call of this server is in flight" : "calls of several chats are in flight, so the asking chat is unknown");
  const call = [...connection.inFlight][0]!;
  const mapped = elicitationQuestions(params.requestedSchema, params.message);
  if (!mapped.ok) return decline(context, connection, mapped.reason);
  const { questions } = mapped;
  const signal = AbortSignal.any([call.signal, requestSignal, context.shutdown]);
  const rule = elicitationRule(params.requestedSchema);
  log({ event: "mcp/elicitation-requested", server, sessionId: call.sessionId, questions: questions.length });
  try {
    const { answers } = await context.ask({ questions, sessionId: call.sessionId, signal, rule, origin: { kind: "mcp-server", name: server } });
    const content = elicitationReply(params.requestedSchema, questions, answers);
    if (!content.ok) {
      log({ event: "mcp/elicitation-refused", server, sessionId: call.sessionId, problem: content.problem });
      return { action: "cancel" };
    }
    log({ event: "mcp/elicitation-answered", server, sessionId: call.sessionId, action: "accept" });
    return { action: "accept", content: content.content };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const action = code === "ASK_CANCELLED" ? "decline" : "cancel";
    log({ event: "mcp/elicitation-answered", server, sessionId: call.sessionId, action, code: typeof code === "string" ? code : "unknown" });
    return { action };
  }
}
