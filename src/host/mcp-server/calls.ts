import { randomUUID } from "node:crypto";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { Chat } from "../sessions/service";
import type { Logger } from "../log";
import { errorOutcome, type ToolOutcome } from "../tools/registry";
import { describeIssues } from "../pending/user-interaction";
import { keyOf, RpcError, type Extra, type McpSession } from "./mcp-session";
import { startProgress } from "./progress";
import { toMcpResult, unknownTicketError, WAIT_TOOL_NAME, WaitArgs, waitingText, type McpToolResult } from "./tools";

type Settled<T> = { done: true; value: T } | { done: false };

/** "Claude Code · 09:05": the client's name and the host's local time it connected. */
export function sessionTitle(clientName: string, connectedAt: Date): string {
  const two = (value: number) => String(value).padStart(2, "0");
  return `${clientName} · ${two(connectedAt.getHours())}:${two(connectedAt.getMinutes())}`;
}

function settleWithin<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  return Promise.race([promise.then((value): Settled<T> => ({ done: true, value })), expired]).finally(() => clearTimeout(timer));
}

/** A controller aborted with `signal`; `unlink` stops following it. */
function follow(signal: AbortSignal): { controller: AbortController; unlink(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (signal.aborted) controller.abort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return { controller, unlink: () => signal.removeEventListener("abort", onAbort) };
}

export interface CallOptions {
  chat: Pick<Chat, "createSession" | "callTool">;
  log: Logger;
  /** The tools a call may name (the built-in registry's). */
  askingTools: Set<string>;
  /** After this long an unanswered call returns a waiting ticket; null waits as long as it takes. */
  waitMs: number | null;
  maxCalls: number;
  progressMs: number;
}

/**
 * An MCP session's `tools/call` (docs/protocol.md, mcp-*): the call runs in the session's Parley session (created on the
 * first call, and again if the human deleted it), sends progress while it waits, and after `waitMs` returns a ticket that
 * the wait tool waits on; a call or wait whose request is aborted aborts its question.
 */
export function createCallTool(options: CallOptions): (session: McpSession, name: string, args: unknown, extra: Extra) => Promise<McpToolResult> {
  const { log, askingTools, waitMs, maxCalls, progressMs } = options;

  /** Runs the call in the session's Parley session, creating it on the first call (or again if the human deleted it). */
  async function run(session: McpSession, name: string, args: unknown, signal: AbortSignal, onRequested: (rpcId: string) => void): Promise<ToolOutcome> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const parleySession = parleySessionOf(session);
      const outcome = await options.chat.callTool(await parleySession, { callId: randomUUID(), name, args }, { signal, onRequested, origin: { kind: "mcp-client", name: session.clientName } });
      if (outcome) return outcome;
      // The human deleted it: the next call, this one's retry or another's, creates a new one.
      if (session.parleySession === parleySession) session.parleySession = null;
    }
    throw new RpcError(ErrorCode.InternalError, "the Parley session for this client could not be created");
  }

  /** The MCP session's Parley session, created on its first call; calls that start together share one creation, and a failed one is not kept. */
  function parleySessionOf(session: McpSession): Promise<string> {
    if (session.parleySession !== null) return session.parleySession;
    const creating = options.chat.createSession(sessionTitle(session.clientName, session.connectedAt), { kind: "mcp-client", name: session.clientName }).then((created) => created.id);
    session.parleySession = creating;
    creating.catch(() => {
      if (session.parleySession === creating) session.parleySession = null;
    });
    return creating;
  }

  function progressFor(extra: Extra): () => void {
    return startProgress(
      extra._meta?.progressToken,
      (params) => extra.sendNotification({ method: "notifications/progress", params }),
      (error) => log({ event: "mcp/progress-failed", error: error instanceof Error ? error.message : String(error) }),
      progressMs,
    );
  }

  function reserve(session: McpSession) {
    const waiting = [...session.tickets.values()].filter((ticket) => ticket.deliveredAt === null).length;
    if (session.calls.size + waiting >= maxCalls) {
      throw new RpcError(ErrorCode.InvalidRequest, `this MCP session already has ${maxCalls} calls in flight or waiting; wait for one to finish`);
    }
  }

  async function callTool(session: McpSession, name: string, args: unknown, extra: Extra): Promise<McpToolResult> {
    if (name === WAIT_TOOL_NAME && waitMs !== null) return waitOnTicket(session, args, extra, waitMs);
    if (!askingTools.has(name)) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    reserve(session);
    const key = keyOf(extra.requestId);
    const { controller, unlink } = follow(extra.signal);
    session.calls.set(key, controller);
    const stopProgress = progressFor(extra);
    const asked: { rpcId: string | null } = { rpcId: null };
    try {
      const running = run(session, name, args, controller.signal, (id) => {
        asked.rpcId = id;
      });
      if (waitMs === null) return toMcpResult(await running);
      const first = await settleWithin(running, waitMs);
      if (first.done) return toMcpResult(first.value);
      const rpcId = asked.rpcId;
      if (rpcId === null) return toMcpResult(await running);
      session.tickets.set(rpcId, { rpcId, running, controller, waits: 0, lastSeen: Date.now(), deliveredAt: null });
      return { content: [{ type: "text", text: waitingText(rpcId) }] };
    } finally {
      stopProgress();
      unlink();
      if (session.calls.get(key) === controller) session.calls.delete(key);
    }
  }

  async function waitOnTicket(session: McpSession, args: unknown, extra: Extra, sliceMs: number): Promise<McpToolResult> {
    const parsed = WaitArgs.safeParse(args ?? {});
    if (!parsed.success) return toMcpResult(errorOutcome({ name: "ToolError", code: "INVALID_ARGS", message: `invalid arguments: ${describeIssues(parsed.error.issues)}` }));
    const ticket = session.tickets.get(parsed.data.ticket);
    if (!ticket) return toMcpResult(errorOutcome(unknownTicketError(parsed.data.ticket)));
    const key = keyOf(extra.requestId);
    const { controller, unlink } = follow(extra.signal);
    const abortQuestion = () => ticket.controller.abort();
    controller.signal.addEventListener("abort", abortQuestion, { once: true });
    session.calls.set(key, controller);
    ticket.waits += 1;
    const stopProgress = progressFor(extra);
    try {
      const settled = await settleWithin(ticket.running, sliceMs);
      if (!settled.done) return { content: [{ type: "text", text: waitingText(ticket.rpcId) }] };
      if (session.tickets.get(ticket.rpcId) !== ticket) return toMcpResult(errorOutcome(unknownTicketError(ticket.rpcId)));
      // The answer may still not reach the client (a wait it cancelled, a stream cut as the result was written): the ticket
      // keeps it a while for a wait sent again, and no longer counts against the session's calls.
      if (!extra.signal.aborted) ticket.deliveredAt ??= Date.now();
      return toMcpResult(settled.value);
    } finally {
      ticket.waits -= 1;
      ticket.lastSeen = Date.now();
      stopProgress();
      unlink();
      controller.signal.removeEventListener("abort", abortQuestion);
      if (session.calls.get(key) === controller) session.calls.delete(key);
    }
  }

  return callTool;
}
