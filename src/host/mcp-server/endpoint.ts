import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { CallToolRequestSchema, ErrorCode, isInitializeRequest, ListToolsRequestSchema, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { LIMITS } from "../../protocol/schemas";
import type { Chat } from "../sessions/service";
import { checkFence, type FenceOptions } from "../fence/fence";
import type { Logger } from "../log";
import { errorOutcome, type ToolOutcome, type ToolRegistry } from "../tools/registry";
import { describeIssues } from "../pending/user-interaction";
import { PROGRESS_INTERVAL_MS, startProgress } from "./progress";
import { mcpToolList, toMcpResult, unknownTicketError, WAIT_TOOL_NAME, WaitArgs, waitingText, type McpToolResult } from "./tools";
import { HttpError, readBody } from "../http/http";
import { FORWARDED_HEADER, forwardMcp } from "./forward";

/** An MCP session nobody used for this long is closed, aborting what it left pending. */
export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const MAX_MCP_SESSIONS = 2_000;
/** Calls in flight plus unanswered tickets, per MCP session. */
export const MAX_CALLS_PER_SESSION = 100;
const REAP_EVERY_MS = 60_000;
/** The JSON-RPC codes the SDK's transport uses for a refused request and for an unknown session. */
const SERVER_ERROR = -32000;
const SESSION_NOT_FOUND = -32001;
export const SERVER_VERSION = "0.1.0";

export interface McpEndpointOptions {
  fence: FenceOptions;
  tools: ToolRegistry;
  chat: Pick<Chat, "createSession" | "callTool">;
  log: Logger;
  /** PARLEY_MCP_WAIT_S: after this many seconds an unanswered call returns a waiting ticket; null waits as long as it takes. */
  waitSeconds?: number | null;
  progressIntervalMs?: number;
  idleTimeoutMs?: number;
  maxSessions?: number;
  maxCallsPerSession?: number;
  /** The clock that stamps a session's title. */
  now?: () => Date;
  /** In a cluster: where the other hosts are, so a request for an MCP session another host holds reaches it. */
  peers?: McpPeers;
  /**
   * The brake on creating sessions (POST /api/sessions' bucket): opening an MCP session counts as creating one. Returns the
   * seconds to wait when the client is over its limit, else null.
   */
  throttleSession?(request: IncomingMessage): number | null;
}

/**
 * The hosts of a cluster as `/mcp` needs them: an MCP session lives in the memory of the host that opened it, so its
 * id starts with that host's instance and a dot, and any other host passes its requests there (docs/protocol.md, mcp-cluster).
 */
export interface McpPeers {
  instance: string;
  /** Where the live host `instance` is reached; null when it is this host or holds no live lease. */
  urlOf(instance: string): Promise<URL | null>;
}

/** `/mcp`: the Streamable HTTP front door for outside agents, one MCP server and transport per MCP session. */
export interface McpEndpoint {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  sessionCount(): number;
  /** Closes every MCP session, aborting their calls. */
  close(): Promise<void>;
}

interface Ticket {
  rpcId: string;
  running: Promise<ToolOutcome>;
  controller: AbortController;
}

interface McpSession {
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
  openRequests: number;
  lastSeen: number;
}

type Extra = { signal: AbortSignal; requestId: RequestId; _meta?: { progressToken?: string | number } | undefined; sendNotification(notification: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; message: string } }): Promise<void> };

/** A JSON-RPC error a request handler throws; the SDK sends `code` and `message` as they are. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type Settled<T> = { done: true; value: T } | { done: false };

const INSTRUCTIONS =
  "Parley shows your questions to the human in its web app (any tab, any device) and returns their answer as the tool result. Ask with ask_user_question; present a plan for approval with present_plan.";

function sendRpcError(response: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}) {
  const text = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  response.writeHead(status, { ...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  response.end(text);
}

const keyOf = (id: RequestId) => `${typeof id}:${id}`;

/** The JSON-RPC request ids a POST body carries, so a stream closed early can abort exactly those calls. */
function requestKeys(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const keys: string[] = [];
  for (const message of messages) {
    if (message === null || typeof message !== "object") continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) keys.push(keyOf(id));
  }
  return keys;
}

function principalOf(request: IncomingMessage): string {
  return createHash("sha256")
    .update(request.headers.authorization ?? "")
    .digest("hex");
}

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

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { log } = options;
  const sessions = new Map<string, McpSession>();
  const waitMs = options.waitSeconds ? options.waitSeconds * 1000 : null;
  const idleMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const maxSessions = options.maxSessions ?? MAX_MCP_SESSIONS;
  const maxCalls = options.maxCallsPerSession ?? MAX_CALLS_PER_SESSION;
  const progressMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const now = options.now ?? (() => new Date());
  const tools = mcpToolList(options.tools, { waitTool: waitMs !== null });
  const askingTools = new Set(options.tools.list().map((tool) => tool.name));
  /** One validator for every session: each server would otherwise build its own Ajv, which it only needs for elicitation. */
  const validator = new AjvJsonSchemaValidator();

  const reaper = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const session of [...sessions.values()]) {
        if (session.openRequests > 0 || session.calls.size > 0 || session.lastSeen > cutoff) continue;
        log({ event: "mcp/reaped", mcpSessionId: session.id });
        void session.transport.close();
      }
    },
    Math.min(idleMs, REAP_EVERY_MS),
  );
  reaper.unref();

  function endSession(session: McpSession) {
    if (sessions.get(session.id) !== session) return;
    sessions.delete(session.id);
    for (const controller of session.calls.values()) controller.abort();
    for (const ticket of session.tickets.values()) ticket.controller.abort();
    session.tickets.clear();
    log({ event: "mcp/closed", mcpSessionId: session.id, sessions: sessions.size });
  }

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
    if (session.calls.size + session.tickets.size >= maxCalls) {
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
      session.tickets.set(rpcId, { rpcId, running, controller });
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
    const stopProgress = progressFor(extra);
    try {
      const settled = await settleWithin(ticket.running, sliceMs);
      if (!settled.done) return { content: [{ type: "text", text: waitingText(ticket.rpcId) }] };
      if (session.tickets.get(ticket.rpcId) !== ticket) return toMcpResult(errorOutcome(unknownTicketError(ticket.rpcId)));
      session.tickets.delete(ticket.rpcId);
      return toMcpResult(settled.value);
    } finally {
      stopProgress();
      unlink();
      controller.signal.removeEventListener("abort", abortQuestion);
      if (session.calls.get(key) === controller) session.calls.delete(key);
    }
  }

  function createServer(session: McpSession): Server {
    const server = new Server({ name: "parley", title: "Parley", version: SERVER_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: validator });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(session, request.params.name, request.params.arguments, extra as Extra));
    server.onerror = (error) => log({ event: "mcp/error", mcpSessionId: session.id, error: error.message });
    return server;
  }

  async function serve(session: McpSession, request: IncomingMessage, response: ServerResponse, body: unknown) {
    session.openRequests += 1;
    session.lastSeen = Date.now();
    const keys = requestKeys(body);
    response.on("close", () => {
      session.openRequests -= 1;
      session.lastSeen = Date.now();
      if (response.writableFinished) return;
      for (const key of keys) session.calls.get(key)?.abort();
    });
    await session.transport.handleRequest(request, response, body);
  }

  async function open(request: IncomingMessage, response: ServerResponse, body: unknown) {
    if (!isInitializeRequest(body)) return sendRpcError(response, 400, SERVER_ERROR, "Bad Request: Mcp-Session-Id header is required");
    if (sessions.size >= maxSessions) {
      return sendRpcError(response, 503, SERVER_ERROR, `Parley already holds ${maxSessions} MCP sessions; end one with DELETE /mcp or let idle ones expire`);
    }
    const retryAfter = options.throttleSession?.(request) ?? null;
    if (retryAfter !== null) return sendRpcError(response, 429, SERVER_ERROR, `too many sessions created from this client; retry in ${retryAfter} s`, { "Retry-After": String(retryAfter) });
    const info = body.params.clientInfo;
    const session: McpSession = {
      id: "",
      principal: principalOf(request),
      clientName: (info.title ?? info.name).trim() || "MCP client",
      connectedAt: now(),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => (options.peers ? `${options.peers.instance}.${randomUUID()}` : randomUUID()),
        maxRequestBodySize: LIMITS.httpBodyBytes,
        onsessioninitialized: (id) => {
          session.id = id;
          sessions.set(id, session);
          log({ event: "mcp/opened", mcpSessionId: id, sessions: sessions.size });
        },
      }),
      parleySession: null,
      calls: new Map(),
      tickets: new Map(),
      openRequests: 0,
      lastSeen: Date.now(),
    };
    session.transport.onclose = () => endSession(session);
    await createServer(session).connect(session.transport);
    await serve(session, request, response, body);
  }

  /** Passes the request to the live host that holds MCP session `id`, if another one does; whether it was passed on (or answered). */
  async function forwardToHolder(request: IncomingMessage, response: ServerResponse, id: string, raw: Buffer | null): Promise<boolean> {
    const dot = id.indexOf(".");
    if (!options.peers || dot <= 0 || request.headers[FORWARDED_HEADER] !== undefined) return false;
    const holder = id.slice(0, dot);
    const target = await options.peers.urlOf(holder);
    if (target === null) return false;
    const failed = await forwardMcp(request, response, raw, target);
    if (failed === null) return true;
    log({ event: "mcp/forward-failed", holder, error: failed.message });
    sendRpcError(response, 502, SERVER_ERROR, "the Parley host that holds this MCP session cannot be reached; start a new session");
    return true;
  }

  return {
    async handle(request, response) {
      const verdict = await checkFence(request, options.fence);
      if (!verdict.ok) {
        const retry: Record<string, string> = "retryAfterSeconds" in verdict ? { "Retry-After": String(verdict.retryAfterSeconds) } : {};
        return sendRpcError(response, verdict.status, SERVER_ERROR, verdict.message, retry);
      }
      const method = request.method ?? "GET";
      if (method !== "POST" && method !== "GET" && method !== "DELETE") {
        return sendRpcError(response, 405, SERVER_ERROR, "Method not allowed.", { Allow: "GET, POST, DELETE" });
      }
      let body: unknown = undefined;
      let raw: Buffer | null = null;
      if (method === "POST") {
        try {
          raw = await readBody(request);
        } catch (error) {
          if (!(error instanceof HttpError) || error.status !== 413) throw error;
          return sendRpcError(response, 413, SERVER_ERROR, `Payload Too Large: Request body must not exceed ${LIMITS.httpBodyBytes} bytes`, { Connection: "close" });
        }
        try {
          body = JSON.parse(raw.toString("utf8"));
        } catch {
          return sendRpcError(response, 400, ErrorCode.ParseError, "Parse error: Invalid JSON");
        }
      }
      const header = request.headers["mcp-session-id"];
      if (header === undefined) {
        if (method === "POST") return open(request, response, body);
        return sendRpcError(response, 400, SERVER_ERROR, "Bad Request: Mcp-Session-Id header is required");
      }
      const session = typeof header === "string" ? sessions.get(header) : undefined;
      if (!session && typeof header === "string" && (await forwardToHolder(request, response, header, raw))) return;
      if (!session || session.principal !== principalOf(request)) return sendRpcError(response, 404, SESSION_NOT_FOUND, "Session not found");
      await serve(session, request, response, body);
    },

    sessionCount: () => sessions.size,

    async close() {
      clearInterval(reaper);
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
    },
  };
}
