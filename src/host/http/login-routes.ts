import type { IncomingMessage, ServerResponse } from "node:http";
import type { Auth } from "../fence/auth";
import type { RequestTarget } from "../fence/request-target";
import { API_HEADERS, HttpError, readJson, refuse, sendJson, type Route } from "./http";

/** `/?token=…` logs the browser in: a fresh login in the cookie, never the token itself. False when the request is no login link. */
export async function handleLoginLink(auth: Auth | null, request: IncomingMessage, response: ServerResponse, target: RequestTarget): Promise<boolean> {
  const offered = target.search.get("token");
  if (target.pathname !== "/" || offered === null || auth === null) return false;
  const verdict = auth.checkLink(request, offered);
  if (!verdict.ok) {
    refuse(response, verdict);
    return true;
  }
  response.writeHead(302, { ...API_HEADERS, Location: "/", "Set-Cookie": await auth.newLogin() });
  response.end();
  return true;
}

/** `POST /api/logout` (docs/protocol.md, fence-login); `auth` is read per request, since it exists once the port is known. */
export function authRoutes(auth: () => Auth | null): Route[] {
  return [
    {
      pattern: /^\/api\/logout$/,
      methods: {
        async POST({ request, response }) {
          await readJson(request, true);
          const current = auth();
          if (current === null) throw new HttpError(404, "NOT_FOUND", "this host has no logins: it runs without a token");
          const ended = await current.logout(request);
          response.setHeader("Set-Cookie", current.clearCookie());
          sendJson(response, 200, { loggedOut: ended });
        },
      },
    },
  ];
}
