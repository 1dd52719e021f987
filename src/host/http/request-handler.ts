import type { IncomingMessage, ServerResponse } from "node:http";
import type { Auth } from "../fence/auth";
import { checkFence, hasManyHosts, hostAllowed, type FenceOptions } from "../fence/fence";
import { parseRequestTarget, type RequestTarget } from "../fence/request-target";
import type { Logger } from "../log";
import { StorageError, storageStatus } from "../storage-error";
import { ClientGoneError, dispatch, HttpError, refuse, sendError, type Route } from "./http";
import { handleLoginLink } from "./login-routes";

export interface RequestHandlerOptions {
  fence: FenceOptions;
  routes: Route[];
  log: Logger;
  /** `/mcp`: the MCP endpoint, which checks the fence itself. */
  mcp(request: IncomingMessage, response: ServerResponse): Promise<void>;
  serveStatic(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void>;
  /** Made once the port is known; null without a token. */
  auth(): Auth | null;
  /** True once the host is shutting down: every request is refused with 503. */
  closing(): boolean;
  /** Called for every `/api/` request that may write, before it is dispatched (a cluster ends it once its frames are out). */
  beforeWrite?(response: ServerResponse): void;
}

/**
 * The host's one HTTP handler: a target that does not parse is refused, `/mcp` goes to the MCP endpoint, `/api/` through
 * the fence to the routes, anything else past the Host check to the login link or the static files; every request is
 * logged with its status and time, and a failure is answered in the error vocabulary (docs/protocol.md, Error codes).
 */
export function createRequestHandler(options: RequestHandlerOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const { fence, log } = options;

  async function handleApi(request: IncomingMessage, response: ServerResponse, target: RequestTarget) {
    const verdict = await checkFence(request, fence);
    if (!verdict.ok) return refuse(response, verdict);
    if (verdict.setCookie) response.setHeader("Set-Cookie", verdict.setCookie);
    if (request.method !== "GET" && request.method !== "HEAD") options.beforeWrite?.(response);
    await dispatch(options.routes, request, response, target);
  }

  return async function handle(request, response) {
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
      if (hasManyHosts(request)) {
        response.setHeader("Connection", "close");
        return sendError(response, 400, "BAD_REQUEST", "the request carries more than one Host header");
      }
      if (target.pathname.includes("//")) return sendError(response, 404, "NOT_FOUND", "no resource has an empty path segment");
      if (options.closing()) {
        response.setHeader("Connection", "close");
        return sendError(response, 503, "INTERNAL", "the host is shutting down");
      }
      if (target.pathname === "/mcp") return await options.mcp(request, response);
      if (target.pathname === "/api" || target.pathname.startsWith("/api/")) return await handleApi(request, response, target);
      if (!hostAllowed(request, fence)) return sendError(response, 403, "FORBIDDEN", "the Host header is not a loopback name or an allowed host");
      if (await handleLoginLink(options.auth(), request, response, target)) return;
      await options.serveStatic(request, response, target.pathname);
    } catch (error) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      // The client went away while sending its body: nothing failed here and nothing is left to answer.
      if (error instanceof ClientGoneError) {
        log({ event: "http/client-gone", path: pathname });
        response.destroy();
        return;
      }
      if (error instanceof StorageError) {
        log({ event: "http/storage-failed", path: pathname, code: error.code });
        return sendError(response, storageStatus(error.code), error.code, error.message);
      }
      if (error instanceof HttpError) {
        if (error.status === 413) response.setHeader("Connection", "close");
        return sendError(response, error.status, error.code, error.message, error.headers);
      }
      log({ event: "http/failed", path: pathname, error: error instanceof Error ? error.name : "unknown" });
      return sendError(response, 500, "INTERNAL", "the host failed to handle this request");
    }
  };
}
