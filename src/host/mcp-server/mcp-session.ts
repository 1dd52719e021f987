import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOutcome } from "../tools/registry";

// What `/mcp` keeps per MCP session, shared by the endpoint (sessions, transports) and the calls (runs, tickets).

/** A call still running after the wait: its question is answered through the wait tool with this ticket (its rpcId). */
export interface Ticket {
  rpcId: string;
  running: Promise<ToolOutcome>;
  controller: AbortController;
  /** Wait calls on it now; while none is open for the idle timeout, the ticket expires (its question aborted if still pending). */
  waits: number;
  lastSeen: number;
  /** When a wait returned its answer: it is kept a while for a wait sent again (the first one's answer lost on the way). */
  deliveredAt: number | null;
}

/** How long a ticket whose answer a wait returned is kept for a wait sent again: a minute, or the session's idle timeout when shorter. */
export const deliveredKeepMs = (idleMs: number) => Math.min(60_000, idleMs);

/** An MCP session as this host holds it: its transport, its Parley session, its calls and tickets. */
export interface McpSession {
  id: string;
  principal: string;
  clientName: string;
  connectedAt: Date;
  transport: StreamableHTTPServerTransport;
  /** The Parley session its calls run in, once asked for: one creation however many calls start at once. */
  parleySession: Promise<string> | null;
  /** In-flight calls by JSON-RPC id; aborting one settles its question. */
  calls: Map<string, AbortController>;
  tickets: Map<string, Ticket>;
  /** The JSON-RPC ids of the requests whose POST is still open: an id is this session's until its request is done. */
  inFlight: Set<string>;
  openRequests: number;
  lastSeen: number;
}

/** What the SDK hands a request handler, as much as the calls use. */
export type Extra = { signal: AbortSignal; requestId: RequestId; _meta?: { progressToken?: string | number } | undefined; sendNotification(notification: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; message: string } }): Promise<void> };

/** A JSON-RPC error a request handler throws; the SDK sends `code` and `message` as they are. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON-RPC request id as a map key: a string id and a number id never collide. */
export const keyOf = (id: RequestId) => `${typeof id}:${id}`;
