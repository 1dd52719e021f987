import type { IncomingMessage, ServerResponse } from "node:http";
import { LIMITS, type ErrorCode } from "../../protocol/schemas";
import type { FenceRefusal } from "../fence/fence";
import { decodeSegment, type RequestTarget } from "../fence/request-target";
import { describeIssues } from "../pending/user-interaction";

type Json = Record<string, unknown>;

/** A request refused with an HTTP status and an error code; the router answers it as an error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const API_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

export function sendJson(response: ServerResponse, status: number, body?: Json) {
  if (body === undefined) {
    response.writeHead(status, API_HEADERS);
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { ...API_HEADERS, "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  response.end(text);
}

export function sendError(response: ServerResponse, status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  sendJson(response, status, { error: { code, message } });
}

/** Answers a fence refusal, with `Retry-After` when it is the brake. */
export function refuse(response: ServerResponse, verdict: FenceRefusal) {
  sendError(response, verdict.status, verdict.code, verdict.message, verdict.status === 429 ? { "Retry-After": String(verdict.retryAfterSeconds) } : {});
}

function isJsonType(request: IncomingMessage): boolean {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

const tooLarge = () => new HttpError(413, "PAYLOAD_TOO_LARGE", `request bodies are limited to ${LIMITS.httpBodyBytes} bytes`);

/** The client went away before its request's body was all read: nothing is left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super("the client went away before its request's body was read");
    this.name = "ClientGoneError";
  }
}

/** A request's body bytes, a 413 HttpError past the host's body limit (declared or streamed), or a ClientGoneError. */
export function readBody(request: IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > LIMITS.httpBodyBytes) {
    request.resume();
    return Promise.reject(tooLarge());
  }
  // A request aborted before this read began emits nothing more (Node emits its error only to listeners already there).
  if (request.destroyed && !request.complete) return Promise.reject(new ClientGoneError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= LIMITS.httpBodyBytes) chunks.push(chunk);
    });
    request.on("end", () => (size > LIMITS.httpBodyBytes ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    request.on("error", () => reject(new ClientGoneError()));
    request.on("close", () => {
      if (!request.complete) reject(new ClientGoneError());
    });
  });
}

/** Reads a JSON body: 413 when too large, 415 when not JSON-typed, 400 when it does not parse. An empty body is `undefined` when optional. */
export async function readJson(request: IncomingMessage, optional: boolean): Promise<unknown> {
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

type Parser<T> = { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } };

/** Validates a parsed body: 400 `INVALID_BODY` naming each issue's path. */
export function parseBody<T>(schema: Parser<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, "INVALID_BODY", `invalid body: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

/** What a route handler gets: the request, its response, the parsed target and the path's captured segments (decoded). */
export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  target: RequestTarget;
  params: string[];
}

export type Handler = (context: RouteContext) => void | Promise<void>;

/** One path of the API: a pattern (whole-path match; groups are path segments) and a handler per method. */
export interface Route {
  pattern: RegExp;
  methods: Partial<Record<"GET" | "POST" | "PATCH" | "DELETE", Handler>>;
}

/** Runs the route matching the path: 404 for no route, 405 with `Allow` for a method it lacks, 400 for a segment that is not valid percent-encoding. */
export async function dispatch(routes: readonly Route[], request: IncomingMessage, response: ServerResponse, target: RequestTarget): Promise<void> {
  for (const route of routes) {
    const match = route.pattern.exec(target.pathname);
    if (!match) continue;
    const method = request.method ?? "GET";
    const handler = Object.hasOwn(route.methods, method) ? route.methods[method as keyof Route["methods"]] : undefined;
    if (!handler) throw new HttpError(405, "METHOD_NOT_ALLOWED", `${method} is not allowed here`, { Allow: Object.keys(route.methods).join(", ") });
    const params = match.slice(1).map((segment) => decodeSegment(segment ?? ""));
    if (params.includes(null)) throw new HttpError(400, "BAD_REQUEST", "a segment of the path is not valid percent-encoding");
    return handler({ request, response, target, params: params as string[] });
  }
  throw new HttpError(404, "NOT_FOUND", `no route for ${target.pathname}`);
}
