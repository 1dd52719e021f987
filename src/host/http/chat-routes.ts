import { createHash } from "node:crypto";
import { CreateSessionBody, PostMessageBody, RenameSessionBody, type SessionAgent } from "../../protocol/schemas";
import type { Chat } from "../sessions/service";
import type { Logger } from "../log";
import { passToAgentHost, type AgentHostOf } from "./forward";
import { API_HEADERS, HttpError, parseBody, readJson, sendJson, type Route, type RouteContext } from "./http";
import type { RateLimitedRoute } from "../fence/rate-limit";
import { parseSessionPage } from "../sessions/session-page";

export interface ChatRoutesOptions {
  chat: Chat;
  /** Throws 429 when the client is over its limit for the route. */
  throttle(context: RouteContext, route: RateLimitedRoute): void;
  /** The session agent of a chat an ACP agent runs (`{agent, cwd, mode}` in the body), or the rule the request breaks (400). */
  sessionAgent?(name: string, cwd: string | undefined, mode: string | undefined): { ok: true; agent: SessionAgent } | { ok: false; reason: string };
  /** In a cluster: the live host whose process runs the chat's ACP agent session, when it is another host (docs/protocol.md, acp-cluster). */
  agentHost?: AgentHostOf;
  log?: Logger;
}

const notFound = (sessionId: string) => new HttpError(404, "NOT_FOUND", `no session ${sessionId}`);

/** Image types a browser shows as they are; anything else a tool returned is served as a download. SVG is not among them: it can carry script. */
const SHOWN_MEDIA_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp"]);

/** A stored image's validator: a hash of its bytes, so a cached copy is only reused while the host still holds the same bytes. */
export function mediaEtag(data: Buffer): string {
  return `"${createHash("sha256").update(data).digest("base64url")}"`;
}

/** Whether an `If-None-Match` header names `etag` (weak comparison, as RFC 9110 asks of it) or is `*`. */
export function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(",") : header).split(",").map((tag) => tag.trim());
  return tags.some((tag) => tag === "*" || tag.replace(/^W\//, "") === etag);
}

/** `/api/sessions…`: the chat list, one chat, its messages and Stop (docs/protocol.md, Uplink). */
export function chatRoutes({ chat, throttle, sessionAgent, agentHost, log }: ChatRoutesOptions): Route[] {
  return [
    {
      pattern: /^\/api\/sessions$/,
      methods: {
        async GET({ response, target }) {
          const page = parseSessionPage(target.search);
          if (!page.ok) throw new HttpError(400, "INVALID_QUERY", page.message);
          sendJson(response, 200, await chat.listSessions(page.page));
        },
        async POST(context) {
          throttle(context, "sessions");
          const body = parseBody(CreateSessionBody, (await readJson(context.request, true)) ?? {});
          if (body.agent === undefined) return sendJson(context.response, 201, { session: await chat.createSession(body.title) });
          const agent = sessionAgent?.(body.agent, body.cwd, body.mode) ?? { ok: false as const, reason: "no ACP agents are configured" };
          if (!agent.ok) throw new HttpError(400, "INVALID_BODY", agent.reason);
          sendJson(context.response, 201, { session: await chat.createSession(body.title, agent.agent) });
        },
      },
    },
    {
      pattern: /^\/api\/sessions\/([^/]+)$/,
      methods: {
        async GET({ response, params: [id] }) {
          const detail = await chat.getSession(id!);
          if (!detail) throw notFound(id!);
          sendJson(response, 200, detail);
        },
        async PATCH({ request, response, params: [id] }) {
          const body = parseBody(RenameSessionBody, await readJson(request, false));
          const session = await chat.renameSession(id!, body.title);
          if (!session) throw notFound(id!);
          sendJson(response, 200, { session });
        },
        async DELETE({ response, params: [id] }) {
          if (!(await chat.deleteSession(id!))) throw notFound(id!);
          sendJson(response, 204);
        },
      },
    },
    {
      pattern: /^\/api\/sessions\/([^/]+)\/messages$/,
      methods: {
        async POST(context) {
          const id = context.params[0]!;
          throttle(context, "messages");
          const body = parseBody(PostMessageBody, await readJson(context.request, false));
          if (await passToAgentHost(agentHost, log, context, id, "messages", body)) return;
          const result = await chat.postMessage(id, body.text);
          if (result.ok) return sendJson(context.response, 202, { message: result.message });
          if (result.reason === "turn-running") throw new HttpError(409, "TURN_RUNNING", "a turn is already running in this session; abort it or wait");
          if (result.reason === "agent-session") throw new HttpError(409, "AGENT_SESSION", "an outside agent asks through this session and no Parley agent reads messages here: answer its questions in the panel");
          if (result.reason === "closing") throw new HttpError(503, "INTERNAL", "the host is shutting down: nothing was written; send the message again once it is back");
          throw notFound(id);
        },
      },
    },
    {
      pattern: /^\/api\/sessions\/([^/]+)\/abort$/,
      methods: {
        async POST({ request, response, params: [id] }) {
          await readJson(request, true);
          const aborted = await chat.abort(id!);
          if (aborted === null) throw notFound(id!);
          sendJson(response, 202, { aborted });
        },
      },
    },
    {
      pattern: /^\/api\/sessions\/([^/]+)\/grants$/,
      methods: {
        async GET({ response, params: [id] }) {
          const grants = await chat.listGrants(id!);
          if (grants === null) throw notFound(id!);
          sendJson(response, 200, { grants });
        },
      },
    },
    {
      pattern: /^\/api\/sessions\/([^/]+)\/grants\/([^/]+)\/([^/]+)$/,
      methods: {
        async DELETE({ response, params: [id, server, tool] }) {
          const removed = await chat.revokeGrant(id!, server!, tool!);
          if (removed === null) throw notFound(id!);
          if (!removed) throw new HttpError(404, "NOT_FOUND", `session ${id!} has no grant for ${server!} ${tool!}`);
          sendJson(response, 204);
        },
      },
    },
    {
      pattern: /^\/api\/media\/([^/]+)$/,
      methods: {
        async GET({ request, response, params: [id] }) {
          const media = await chat.getMedia(id!);
          if (!media) throw new HttpError(404, "NOT_FOUND", `no media ${id!}`);
          const shown = SHOWN_MEDIA_TYPES.has(media.mimeType);
          const etag = mediaEtag(media.data);
          // Revalidated on every use: once its chat is deleted the host answers 404 and the browser drops its copy.
          const caching = { "Cache-Control": "private, no-cache", ETag: etag };
          if (matchesEtag(request.headers["if-none-match"], etag)) {
            response.writeHead(304, { ...API_HEADERS, ...caching });
            response.end();
            return;
          }
          response.writeHead(200, {
            ...API_HEADERS,
            ...caching,
            "Content-Type": shown ? media.mimeType : "application/octet-stream",
            "Content-Length": media.data.byteLength,
            "Content-Security-Policy": "default-src 'none'; sandbox",
            "Content-Disposition": shown ? "inline" : "attachment",
          });
          response.end(media.data);
        },
      },
    },
  ];
}
