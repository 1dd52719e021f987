import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { CreateSessionBody, LIMITS, PROTOCOL_VERSION, PostMessageBody, RenameSessionBody, type ErrorCode } from "../protocol/schemas";
import { createChat } from "./chat";
import { createAuth, MIN_TOKEN_CHARS, type Auth } from "./auth";
import { checkFence, hostAllowed, type FenceOptions, type FenceVerdict } from "./fence";
import { createLogins } from "./logins";
import { STOPPED_TOOL_TEXT } from "./history";
import { silentLogger, type Logger } from "./log";
import type { Model } from "./models/types";
import { createMcpEndpoint, type McpEndpointOptions } from "./mcp/endpoint";
import { createDownlink } from "./downlink";
import { createPendingTable } from "./pending-table";
import { decodeSegment, parseRequestTarget, type RequestTarget } from "./request-target";
import { parseSessionPage } from "./session-page";
import { createStaticHandler } from "./static";
import { StorageError, storageStatus } from "./storage-error";
import { createRouteLimiter, DEFAULT_RATE_LIMITS, type RateLimitedRoute, type RateLimits } from "./rate-limit";
import { openStore, type Store } from "./store";
import { createAskUserQuestionTool } from "./tools/ask-user-question";
import { createPresentPlanTool } from "./tools/present-plan";
import { createToolRegistry } from "./tools/registry";
import { ABORTED_MESSAGE, createUserInteraction, type UserInteraction } from "./user-interaction";
import { describeIssues } from "./user-interaction";

export const DEFAULT_MAX_STEPS = 25;

export interface ServerOptions {
  host?: string;
  port?: number;
  /** A directory for the SQLite database, or ":memory:". */
  dataDir: string;
  model: Model;
  token?: string | undefined;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  maxSteps?: number;
  /** The Vite build to serve; defaults to ./dist. */
  staticDir?: string;
  log?: Logger;
  pingIntervalMs?: number;
  /** How often each socket gets a heartbeat frame (PARLEY_HEARTBEAT_MS); default 15 s. */
  heartbeatIntervalMs?: number;
  /** Per-client limits on responses, message posts, session creation and wrong tokens; routes left out keep their defaults; `false` turns them off. */
  rateLimits?: Partial<RateLimits> | false;
  /** A store to use instead of opening one in `dataDir` (tests inject faults through it); the host closes it. */
  store?: Store;
  /** The `/mcp` front door: wait tickets (PARLEY_MCP_WAIT_S), progress and idle intervals, limits. */
  mcp?: Omit<McpEndpointOptions, "fence" | "tools" | "chat" | "log">;
}

export interface RunningServer {
  url: string;
  port: number;
  hostId: string;
  /** The seam the tools ask through; benchmarks ask in-process with it. */
  userInteraction: UserInteraction;
  /** Graceful shutdown: stop accepting, settle pending questions, close sockets with 1001, close the database. */
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const API_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

function sendJson(response: ServerResponse, status: number, body?: Json) {
  if (body === undefined) {
    response.writeHead(status, API_HEADERS);
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { ...API_HEADERS, "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  response.end(text);
}

function sendError(response: ServerResponse, status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  sendJson(response, status, { error: { code, message } });
}

function isJsonType(request: IncomingMessage): boolean {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > LIMITS.httpBodyBytes) {
    request.resume();
    return Promise.reject(new HttpError(413, "PAYLOAD_TOO_LARGE", `request bodies are limited to ${LIMITS.httpBodyBytes} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > LIMITS.httpBodyBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on("end", () => {
      if (tooLarge) reject(new HttpError(413, "PAYLOAD_TOO_LARGE", `request bodies are limited to ${LIMITS.httpBodyBytes} bytes`));
      else resolve(Buffer.concat(chunks));
    });
    request.on("error", reject);
  });
}

/** Reads a JSON body: 413 when too large, 415 when not JSON-typed, 400 when it does not parse. An empty body is `undefined` when optional. */
async function readJson(request: IncomingMessage, optional: boolean): Promise<unknown> {
  const declaresBody = request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0";
  const chunked = request.headers["transfer-encoding"] !== undefined;
  if (!isJsonType(request) && (!optional || declaresBody || chunked)) {
    request.resume();
    throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "send the body as Content-Type: application/json");
  }
  const body = await readBody(request);
  if (body.length === 0 && optional) return undefined;
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "INVALID_JSON", "the body is not valid JSON");
  }
}

function parseBody<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, "INVALID_BODY", `invalid body: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

function refuseRequest(response: ServerResponse, verdict: Exclude<FenceVerdict, { ok: true }>) {
  const headers: Record<string, string> = verdict.status === 429 ? { "Retry-After": String(verdict.retryAfterSeconds) } : {};
  sendError(response, verdict.status, verdict.code, verdict.message, headers);
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Starts the Parley host: HTTP uplink, `/api/mux` downlink, agent loop and persistence. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? silentLogger;
  const hostId = randomUUID();
  if (options.token !== undefined && options.token.length < MIN_TOKEN_CHARS) {
    throw new Error(`PARLEY_TOKEN must be at least ${MIN_TOKEN_CHARS} characters long (it has ${options.token.length})`);
  }
  const store = options.store ?? openStore(options.dataDir);
  const stopped = store.stopRunningTools({ name: "UserInteractionError", code: "ASK_ABORTED", message: ABORTED_MESSAGE }, STOPPED_TOOL_TEXT);
  if (stopped > 0) log({ event: "store/interrupted-tools", count: stopped });
  const interrupted = store.interruptStreaming();
  if (interrupted > 0) log({ event: "store/interrupted-replies", count: interrupted });
  if (options.token !== undefined) store.purgeLogins(Date.now());

  const rateLimit = createRouteLimiter(options.rateLimits ?? DEFAULT_RATE_LIMITS);
  /** Made once the port is known: the login cookie is named per port. */
  let auth: Auth | null = null;
  const fence: FenceOptions = {
    allowedHosts: options.allowedHosts ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    ...(options.token === undefined ? {} : { authenticate: (request: IncomingMessage): FenceVerdict => auth!.authenticate(request) }),
  };
  let chatRef: ReturnType<typeof createChat> | null = null;
  const downlink = createDownlink({
    hostId,
    fence,
    replay: () => pending.replay(),
    log,
    ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}),
    ...(options.heartbeatIntervalMs ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
  });
  const pending = createPendingTable({ broadcast: (frame) => downlink.broadcast(frame), onChange: (sessionId) => chatRef?.refresh(sessionId), log });
  const userInteraction = createUserInteraction();
  userInteraction.registerProvider(pending);
  const tools = createToolRegistry();
  tools.register(createAskUserQuestionTool(userInteraction));
  tools.register(createPresentPlanTool(userInteraction));
  const chat = createChat({
    store,
    model: options.model,
    tools,
    broadcast: (frame) => downlink.broadcast(frame),
    pendingCount: (sessionId) => pending.countFor(sessionId),
    log,
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
  });
  chatRef = chat;
  const mcp = createMcpEndpoint({ ...options.mcp, fence, tools, chat, log });
  const serveStatic = createStaticHandler(options.staticDir ?? path.resolve("dist"));
  function throttled(request: IncomingMessage, response: ServerResponse, route: RateLimitedRoute): boolean {
    const verdict = rateLimit(route, request.socket.remoteAddress ?? "unknown");
    if (verdict.ok) return false;
    request.resume();
    sendError(response, 429, "RATE_LIMITED", `too many requests; retry in ${verdict.retryAfterSeconds} s`, { "Retry-After": String(verdict.retryAfterSeconds) });
    return true;
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse, target: RequestTarget) {
    const { pathname } = target;
    const method = request.method ?? "GET";
    const verdict = checkFence(request, fence);
    if (!verdict.ok) return refuseRequest(response, verdict);
    if (verdict.setCookie) response.setHeader("Set-Cookie", verdict.setCookie);

    const notAllowed = (allowed: string) => sendError(response, 405, "METHOD_NOT_ALLOWED", `${method} is not allowed here`, { Allow: allowed });

    if (pathname === "/api/health") {
      if (method !== "GET") return notAllowed("GET");
      const trouble = store.trouble;
      const storage = trouble ? { state: "failing", code: trouble.code, message: trouble.message } : { state: "ok" };
      return sendJson(response, trouble ? 503 : 200, { ok: !trouble, hostId, protocol: PROTOCOL_VERSION, model: options.model.name, storage });
    }
    if (pathname === "/api/logout") {
      if (method !== "POST") return notAllowed("POST");
      await readJson(request, true);
      if (auth === null) return sendError(response, 404, "NOT_FOUND", "this host has no logins: it runs without a token");
      const ended = auth.logout(request);
      response.setHeader("Set-Cookie", auth.clearCookie());
      return sendJson(response, 200, { loggedOut: ended });
    }
    if (pathname === "/api/mux") {
      return sendError(response, 426, "UPGRADE_REQUIRED", "/api/mux is a WebSocket: send Upgrade: websocket", { Upgrade: "websocket", Connection: "Upgrade" });
    }
    if (pathname === "/api/respond") {
      if (method !== "POST") return notAllowed("POST");
      if (throttled(request, response, "respond")) return;
      const body = await readJson(request, false);
      return sendJson(response, 200, pending.respond(body));
    }
    if (pathname === "/api/sessions") {
      if (method === "GET") {
        const page = parseSessionPage(target.search);
        if (!page.ok) return sendError(response, 400, "INVALID_QUERY", page.message);
        return sendJson(response, 200, chat.listSessions(page.page));
      }
      if (method !== "POST") return notAllowed("GET, POST");
      if (throttled(request, response, "sessions")) return;
      const body = parseBody(CreateSessionBody, (await readJson(request, true)) ?? {});
      return sendJson(response, 201, { session: chat.createSession(body.title) });
    }
    const match = /^\/api\/sessions\/([^/]+)(?:\/(messages|abort))?$/.exec(pathname);
    if (!match) return sendError(response, 404, "NOT_FOUND", `no route for ${pathname}`);
    const sessionId = decodeSegment(match[1]!);
    if (sessionId === null) return sendError(response, 400, "BAD_REQUEST", "the session id in the path is not valid percent-encoding");
    const notFound = () => sendError(response, 404, "NOT_FOUND", `no session ${sessionId}`);
    switch (match[2]) {
      case undefined: {
        if (method === "GET") {
          const detail = chat.getSession(sessionId);
          return detail ? sendJson(response, 200, detail) : notFound();
        }
        if (method === "DELETE") return (await chat.deleteSession(sessionId)) ? sendJson(response, 204) : notFound();
        if (method === "PATCH") {
          const body = parseBody(RenameSessionBody, await readJson(request, false));
          const session = chat.renameSession(sessionId, body.title);
          return session ? sendJson(response, 200, { session }) : notFound();
        }
        return notAllowed("GET, PATCH, DELETE");
      }
      case "messages": {
        if (method !== "POST") return notAllowed("POST");
        if (throttled(request, response, "messages")) return;
        const body = parseBody(PostMessageBody, await readJson(request, false));
        const result = chat.postMessage(sessionId, body.text);
        if (result.ok) return sendJson(response, 202, { message: result.message });
        if (result.reason === "turn-running") return sendError(response, 409, "TURN_RUNNING", "a turn is already running in this session; abort it or wait");
        return notFound();
      }
      case "abort": {
        if (method !== "POST") return notAllowed("POST");
        await readJson(request, true);
        const aborted = await chat.abort(sessionId);
        return aborted === null ? notFound() : sendJson(response, 202, { aborted });
      }
      default:
        return notFound();
    }
  }

  /** `/?token=…` logs the browser in: a fresh login in the cookie, never the token itself. */
  function handleTokenLink(request: IncomingMessage, response: ServerResponse, target: RequestTarget): boolean {
    const offered = target.search.get("token");
    if (target.pathname !== "/" || offered === null || auth === null) return false;
    const verdict = auth.checkLink(request, offered);
    if (!verdict.ok) {
      refuseRequest(response, verdict);
      return true;
    }
    response.writeHead(302, { ...API_HEADERS, Location: "/", "Set-Cookie": auth.newLogin() });
    response.end();
    return true;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const started = process.hrtime.bigint();
    const target = parseRequestTarget(request.url);
    const pathname = target?.pathname ?? null;
    response.on("finish", () => {
      const ms = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
      log({ event: "http", method: request.method, path: pathname, status: response.statusCode, ms });
    });
    try {
      if (target === null) {
        response.setHeader("Connection", "close");
        return sendError(response, 400, "BAD_REQUEST", "the request target is not a path");
      }
      if (target.pathname.includes("//")) return sendError(response, 404, "NOT_FOUND", "no resource has an empty path segment");
      if (closing) {
        response.setHeader("Connection", "close");
        return sendError(response, 503, "INTERNAL", "the host is shutting down");
      }
      if (target.pathname === "/mcp") return await mcp.handle(request, response);
      if (target.pathname === "/api" || target.pathname.startsWith("/api/")) return await handleApi(request, response, target);
      if (!hostAllowed(request, fence)) return sendError(response, 403, "FORBIDDEN", "the Host header is not a loopback name or an allowed host");
      if (handleTokenLink(request, response, target)) return;
      await serveStatic(request, response, target.pathname);
    } catch (error) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (error instanceof StorageError) {
        log({ event: "http/storage-failed", path: pathname, code: error.code });
        return sendError(response, storageStatus(error.code), error.code, error.message);
      }
      if (error instanceof HttpError) {
        if (error.status === 413) response.setHeader("Connection", "close");
        return sendError(response, error.status, error.code, error.message);
      }
      log({ event: "http/failed", path: pathname, error: error instanceof Error ? error.name : "unknown" });
      return sendError(response, 500, "INTERNAL", "the host failed to handle this request");
    }
  }

  let closing: Promise<void> | null = null;
  const server = createServer((request, response) => void handle(request, response));
  server.on("upgrade", (request, socket, head) => downlink.handleUpgrade(request, socket, head));

  const host = options.host ?? "127.0.0.1";
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    store.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  if (options.token !== undefined) auth = createAuth({ token: options.token, logins: createLogins(store, options.token), port, limit: rateLimit });

  return {
    url: formatUrl(host, port),
    port,
    hostId,
    userInteraction,
    close() {
      closing ??= (async () => {
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        pending.dispose();
        await mcp.close();
        await chat.stop();
        await downlink.close();
        server.closeAllConnections();
        await serverClosed;
        store.close();
      })();
      return closing;
    },
  };
}
