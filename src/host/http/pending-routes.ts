import type { Receipt } from "../../protocol/schemas";
import { HttpError, readJson, sendJson, type Route, type RouteContext } from "./http";
import type { RateLimitedRoute } from "../fence/rate-limit";

/** `POST /api/respond`: the human's answer or cancel, checked and claimed by the pending table (docs/protocol.md, respond-*). */
export function pendingRoutes(pending: { respond(body: unknown): Receipt | Promise<Receipt> }, throttle: (context: RouteContext, route: RateLimitedRoute) => void): Route[] {
  return [
    {
      pattern: /^\/api\/respond$/,
      methods: {
        async POST(context) {
          throttle(context, "respond");
          sendJson(context.response, 200, await pending.respond(await readJson(context.request, false)));
        },
      },
    },
    {
      pattern: /^\/api\/mux$/,
      methods: {
        GET() {
          throw new HttpError(426, "UPGRADE_REQUIRED", "/api/mux is a WebSocket: send Upgrade: websocket", { Upgrade: "websocket", Connection: "Upgrade" });
        },
      },
    },
  ];
}
