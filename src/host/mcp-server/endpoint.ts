import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { CallToolRequestSchema, ErrorCode, isInitializeRequest, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../../protocol/elicitation-field";
import { clipLabel, plainLabel } from "../../protocol/plain-label";
import { LIMITS } from "../../protocol/schemas";
import type { Chat } from "../sessions/service";
import { checkFence, type FenceOptions } from "../fence/fence";
import type { Logger } from "../log";
import type { ToolRegistry } from "../tools/registry";
import { createCallTool } from "./calls";
import { deliveredKeepMs, keyOf, type Extra, type McpSession } from "./mcp-session";
import { PROGRESS_INTERVAL_MS } from "./progress";
import { mcpToolList } from "./tools";
import { HttpError, readBody } from "../http/http";
import { FORWARDED_HEADER, forwardRequest } from "../http/forward";

/** An MCP session nobody used for this long is closed, aborting what it left pending. */
export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const MAX_MCP_SESSIONS = 2_000;
/** Calls in flight plus unanswered tickets, per MCP session. */
export const MAX_CALLS_PER_SESSION = 100;
const REAP_EVERY_MS = 60_000;
/** How long a stopping host waits for the results of the calls in flight (their questions already aborted) to be written. */
export const CLOSE_GRACE_MS = 5_000;
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
  /**
   * Closes every MCP session: first refuses new requests and waits (CLOSE_GRACE_MS at most) for the responses carrying
   * results to be written, since the host aborted their questions, so a client is told instead of waiting out its timeout;
   * then aborts what is left.
   */
  close(): Promise<void>;
}

/** The longest MCP client name kept, in characters: its chat's title adds the time it connected, and both stay within their bounds. */
export const CLIENT_NAME_CHARS = 100;

/**
 * What the panel and the chat's title call an MCP client: its `clientInfo` title, else its name, on one line without bidi
 * controls (as every title is), cut with an ellipsis past CLIENT_NAME_CHARS; "MCP client" when nothing is left.
 */
export function clientNameOf(info: { name: string; title?: string }): string {
  return clipLabel(plainLabel(info.title ?? "") || info.name, CLIENT_NAME_CHARS) || "MCP client";
}

const INSTRUCTIONS =
  "Parley shows your questions to the human in its web app (any tab, any device) and returns their answer as the tool result. Ask with ask_user_question; present a plan for approval with present_plan.";

function sendRpcError(response: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}, id: string | number | null = null) {
  const text = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id });
  response.writeHead(status, { ...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  response.end(text);
}

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

/**
 * Why a POST's requests cannot be served, checked before the SDK sees them, or null: an id already in use by a request
 * in flight in the session, or twice in the body (the SDK tells requests apart by id alone, so the answer to one would
 * reach, or cancel, the other); or a `tools/call` whose params the SDK would refuse with a dump of its schema.
 */
function refusalOf(session: McpSession, body: unknown, keys: string[]): { code: number; message: string } | null {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key) || session.inFlight.has(key) || session.calls.has(key)) {
      return { code: ErrorCode.InvalidRequest, message: `Invalid Request: the id ${key.slice(key.indexOf(":") + 1)} is already in use by a request in flight in this MCP session; give each request an id of its own` };
    }
    seen.add(key);
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isRecord(message) || message.method !== "tools/call") continue;
    const params = message.params;
    if (isRecord(params) && typeof params.name === "string" && (params.arguments === undefined || isRecord(params.arguments))) continue;
    return { code: ErrorCode.InvalidParams, message: "Invalid params: tools/call takes params.name, a string, and params.arguments, an object when given" };
  }
  return null;
}

/** The last Authorization header digested and its digest: a client sends the same header with every request. */
let lastPrincipal = { header: "", digest: createHash("sha256").update("").digest("hex") };

function principalOf(request: IncomingMessage): string {
  const header = request.headers.authorization ?? "";
  if (header !== lastPrincipal.header) lastPrincipal = { header, digest: createHash("sha256").update(header).digest("hex") };
  return lastPrincipal.digest;
}

/**
 * Drops each ticket no wait call touched since `cutoff` (a client that keeps its session open, its GET stream say, but
 * stopped waiting): its question, if still pending, is aborted, and the ticket no longer counts against the session's calls.
 * A ticket whose answer a wait returned goes once it was kept for a wait sent again long enough (deliveredKeepMs).
 */
function expireTickets(session: McpSession, cutoff: number, idleMs: number, log: Logger) {
  const delivered = Date.now() - deliveredKeepMs(idleMs);
  for (const ticket of [...session.tickets.values()]) {
    if (ticket.deliveredAt !== null) {
      if (ticket.waits === 0 && ticket.deliveredAt <= delivered) session.tickets.delete(ticket.rpcId);
      continue;
    }
    if (ticket.waits > 0 || ticket.lastSeen > cutoff) continue;
    session.tickets.delete(ticket.rpcId);
    ticket.controller.abort();
    log({ event: "mcp/ticket-expired", mcpSessionId: session.id, rpcId: ticket.rpcId });
  }
}

/** Closes, every minute at most, each MCP session with nothing open or in flight that nobody used for `idleMs`. */
function startReaper(sessions: Map<string, McpSession>, idleMs: number, log: Logger): ReturnType<typeof setInterval> {
  const reaper = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const session of [...sessions.values()]) {
        expireTickets(session, cutoff, idleMs, log);
        if (session.openRequests > 0 || session.calls.size > 0 || session.lastSeen > cutoff) continue;
        log({ event: "mcp/reaped", mcpSessionId: session.id });
        void session.transport.close();
      }
    },
    Math.min(idleMs, REAP_EVERY_MS),
  );
  reaper.unref();
  return reaper;
}

/** The responses of POSTs that carry requests: a stopping host waits for them to close. */
function createAnswering() {
  const open = new Set<Promise<void>>();
  return {
    track(response: ServerResponse) {
      const closed = new Promise<void>((resolve) => response.once("close", resolve));
      open.add(closed);
      void closed.then(() => open.delete(closed));
    },
    /** Resolves once every tracked response closed, or after `ms`. */
    async settled(ms: number) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
      await Promise.race([Promise.all([...open]), grace]).finally(() => clearTimeout(timer));
    },
  };
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
  const callTool = createCallTool({ chat: options.chat, log, askingTools, waitMs, maxCalls, progressMs });
  /** One validator for every session: each server would otherwise build its own Ajv, which it only needs for elicitation. */
  const validator = new AjvJsonSchemaValidator();
  const answering = createAnswering();
  let closing = false;

  const reaper = startReaper(sessions, idleMs, log);

  function endSession(session: McpSession) {
    if (sessions.get(session.id) !== session) return;
    sessions.delete(session.id);
    for (const controller of session.calls.values()) controller.abort();
    for (const ticket of session.tickets.values()) ticket.controller.abort();
    session.tickets.clear();
    log({ event: "mcp/closed", mcpSessionId: session.id, sessions: sessions.size });
  }

  function createServer(session: McpSession): Server {
    const server = new Server({ name: "parley", title: "Parley", version: SERVER_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: validator });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(session, request.params.name, request.params.arguments, extra as Extra));
    server.onerror = (error) => log({ event: "mcp/error", mcpSessionId: session.id, error: error.message });
    return server;
  }

  async function serve(session: McpSession, request: IncomingMessage, response: ServerResponse, body: unknown) {
    session.lastSeen = Date.now();
    const keys = requestKeys(body);
    const refusal = refusalOf(session, body, keys);
    if (refusal !== null) {
      const id = isRecord(body) && (typeof body.id === "string" || typeof body.id === "number") && refusal.code === ErrorCode.InvalidParams ? body.id : null;
      return sendRpcError(response, 400, refusal.code, refusal.message, {}, id);
    }
    session.openRequests += 1;
    for (const key of keys) session.inFlight.add(key);
    if (keys.length > 0) answering.track(response);
    response.on("close", () => {
      session.openRequests -= 1;
      session.lastSeen = Date.now();
      for (const key of keys) session.inFlight.delete(key);
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
    const session: McpSession = {
      id: "",
      principal: principalOf(request),
      clientName: clientNameOf(body.params.clientInfo),
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
      inFlight: new Set(),
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
    const failed = await forwardRequest(request, response, raw, target, "/mcp");
    if (failed === null) return true;
    log({ event: "mcp/forward-failed", holder, error: failed.message });
    sendRpcError(response, 502, SERVER_ERROR, "the Parley host that holds this MCP session cannot be reached; start a new session");
    return true;
  }

  return {
    async handle(request, response) {
      // A login is not rotated here: the MCP transport writes the response, with no cookie of ours.
      const verdict = await checkFence(request, options.fence, false);
      if (!verdict.ok) {
        const retry: Record<string, string> = "retryAfterSeconds" in verdict ? { "Retry-After": String(verdict.retryAfterSeconds) } : {};
        return sendRpcError(response, verdict.status, SERVER_ERROR, verdict.message, retry);
      }
      if (closing) return sendRpcError(response, 503, SERVER_ERROR, "Parley is stopping; connect again once it is back", { Connection: "close" });
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
      closing = true;
      clearInterval(reaper);
      await answering.settled(CLOSE_GRACE_MS);
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
    },
  };
}
