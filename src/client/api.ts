import type { z } from "zod/mini";
import type { HealthResponse, Message, Receipt, RespondRequest, Session } from "../protocol/schemas";
import { loadChecks, type Checks } from "./load-checks";

/** An HTTP error from the host (its `{error:{code,message}}` body), or a response that broke the protocol. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;
  /** Whole seconds the host asked to wait before trying again (`Retry-After` of a 429 or 503); undefined when it did not say. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, code: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface ApiOptions {
  /** Prefix for every path; empty means the page's own origin. */
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** How long an answer waits for the host's receipt before it fails, its drafts kept (default 30 s): a hung host holds no panel. */
  respondTimeoutMs?: number;
}

/** One page of `GET /api/sessions`; `next` is the cursor of the following page, null after the last. */
export interface SessionsPage {
  sessions: Session[];
  next: string | null;
}

/** What `listSessions` asks for: a page size, the cursor of the page, and a search text. */
export interface SessionsQuery {
  limit?: number;
  before?: string;
  q?: string;
}

/** Typed calls for every uplink route of docs/protocol.md. */
export interface Api {
  health(): Promise<z.infer<typeof HealthResponse>>;
  /** One page of sessions, newest activity first. */
  listSessions(query?: SessionsQuery): Promise<SessionsPage>;
  createSession(title?: string): Promise<Session>;
  getSession(sessionId: string): Promise<{ session: Session; messages: Message[] }>;
  /** Sent with `keepalive`: a delete sent as the page goes away (the undo window's flush) still reaches the host. */
  deleteSession(sessionId: string): Promise<void>;
  renameSession(sessionId: string, title: string): Promise<Session>;
  postMessage(sessionId: string, text: string): Promise<Message>;
  abort(sessionId: string): Promise<boolean>;
  /** Resolves with the host's receipt (accepted or not); rejects on a network or HTTP error. */
  respond(body: RespondRequest): Promise<Receipt>;
}

export function createApi(options: ApiOptions = {}): Api {
  const baseUrl = options.baseUrl ?? "";
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function call(method: string, path: string, body?: unknown, keepalive = false, timeoutMs?: number): Promise<Response> {
    const init: RequestInit = { method, headers: { accept: "application/json" }, credentials: "same-origin" };
    if (keepalive) init.keepalive = true;
    if (timeoutMs) init.signal = AbortSignal.timeout(timeoutMs);
    if (body !== undefined) {
      init.headers = { accept: "application/json", "content-type": "application/json" };
      init.body = JSON.stringify(body);
    }
    const response = await doFetch(`${baseUrl}${path}`, init).catch((error: unknown) => {
      throw error instanceof DOMException && error.name === "TimeoutError" ? new Error(`the host did not answer within ${timeoutMs! / 1000} s`) : error;
    });
    if (!response.ok) throw await toApiError(response);
    return response;
  }


  const id = (sessionId: string) => encodeURIComponent(sessionId);

  return {
    async health() {
      return checkedBody((checks) => checks.HealthResponse, await call("GET", "/api/health"));
    },
    async listSessions(query = {}) {
      const params = new URLSearchParams();
      if (query.limit !== undefined) params.set("limit", String(query.limit));
      if (query.before !== undefined) params.set("before", query.before);
      if (query.q !== undefined) params.set("q", query.q);
      const search = params.size > 0 ? `?${params.toString()}` : "";
      const page = await checkedBody((checks) => checks.SessionsPageBody, await call("GET", `/api/sessions${search}`));
      return { sessions: page.sessions, next: page.next ?? null };
    },
    async createSession(title) {
      return (await checkedBody((checks) => checks.SessionResponse, await call("POST", "/api/sessions", title === undefined ? {} : { title }))).session;
    },
    async getSession(sessionId) {
      return checkedBody((checks) => checks.SessionDetailResponse, await call("GET", `/api/sessions/${id(sessionId)}`));
    },
    async deleteSession(sessionId) {
      await call("DELETE", `/api/sessions/${id(sessionId)}`, undefined, true);
    },
    async renameSession(sessionId, title) {
      return (await checkedBody((checks) => checks.SessionResponse, await call("PATCH", `/api/sessions/${id(sessionId)}`, { title }))).session;
    },
    async postMessage(sessionId, text) {
      return (await checkedBody((checks) => checks.MessageResponse, await call("POST", `/api/sessions/${id(sessionId)}/messages`, { text }))).message;
    },
    async abort(sessionId) {
      return (await checkedBody((checks) => checks.AbortResponse, await call("POST", `/api/sessions/${id(sessionId)}/abort`, {}))).aborted;
    },
    async respond(body) {
      return checkedBody((checks) => checks.Receipt, await call("POST", "/api/respond", body, false, options.respondTimeoutMs ?? 30_000));
    },
  };
}

/**
 * A response's JSON body checked against the schema `schemaOf` picks from the client's checks; an `INVALID_RESPONSE`
 * ApiError when it is not JSON or not what the protocol says.
 */
export async function checkedBody<Schema extends z.ZodMiniType>(schemaOf: (checks: Checks) => Schema, response: Response): Promise<z.infer<Schema>> {
  let json: unknown;
  try {
    json = await response.json();
  } catch (error) {
    throw new ApiError(response.status, "INVALID_RESPONSE", `the host sent a body that is not JSON: ${String(error)}`);
  }
  let checks: Checks;
  try {
    checks = await loadChecks();
  } catch (error) {
    throw new ApiError(response.status, "CHECKS_UNAVAILABLE", `the app could not load its checks of the host's answers; reload the page (${String(error)})`);
  }
  const result = checks.checkBody(schemaOf(checks), json);
  if (!result.ok) throw new ApiError(response.status, "INVALID_RESPONSE", `the host sent an unexpected body: ${result.problem}`);
  return result.data;
}

/** The `{error:{code,message}}` of an error body (docs/protocol.md), read without the lazily loaded checks so an error is never lost to them. */
function errorOf(json: unknown): { code: string; message: string } | null {
  if (typeof json !== "object" || json === null || !("error" in json)) return null;
  const error: unknown = json.error;
  if (typeof error !== "object" || error === null || !("code" in error) || !("message" in error)) return null;
  return typeof error.code === "string" && typeof error.message === "string" ? { code: error.code, message: error.message } : null;
}

/** `Retry-After` as whole seconds; the host sends only those, so a date or anything else counts as unsaid. */
function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get("retry-after")?.trim();
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

export async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const retryAfter = retryAfterOf(response);
  const error = errorOf(json);
  if (error !== null) return new ApiError(response.status, error.code, error.message, retryAfter);
  return new ApiError(response.status, `HTTP_${response.status}`, text.trim() || response.statusText || `HTTP ${response.status}`, retryAfter);
}

/** The app's API, on the page's own origin. */
export const api: Api = createApi();
