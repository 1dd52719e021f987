import { CreateSessionBody, PostMessageBody, RenameSessionBody } from "../protocol/schemas";
import type { Chat } from "./chat";
import { HttpError, parseBody, readJson, sendJson, type Route, type RouteContext } from "./http";
import type { RateLimitedRoute } from "./rate-limit";
import { parseSessionPage } from "./session-page";

export interface ChatRoutesOptions {
  chat: Chat;
  /** Throws 429 when the client is over its limit for the route. */
  throttle(context: RouteContext, route: RateLimitedRoute): void;
}

const notFound = (sessionId: string) => new HttpError(404, "NOT_FOUND", `no session ${sessionId}`);

/** `/api/sessions…`: the chat list, one chat, its messages and Stop (docs/protocol.md, Uplink). */
export function chatRoutes({ chat, throttle }: ChatRoutesOptions): Route[] {
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
          sendJson(context.response, 201, { session: await chat.createSession(body.title) });
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
          const result = await chat.postMessage(id, body.text);
          if (result.ok) return sendJson(context.response, 202, { message: result.message });
          if (result.reason === "turn-running") throw new HttpError(409, "TURN_RUNNING", "a turn is already running in this session; abort it or wait");
          if (result.reason === "agent-session") throw new HttpError(409, "AGENT_SESSION", "an outside agent asks through this session and no Parley agent reads messages here: answer its questions in the panel");
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
  ];
}
