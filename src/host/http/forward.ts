import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { pipeline } from "node:stream";
import type { Logger } from "../log";
import type { RouteContext } from "./http";

/** Set on a request one host passes to another, which then never passes it on again. */
export const FORWARDED_HEADER = "x-parley-forwarded";
/** Headers of one connection, not of the request or the answer (RFC 9110 §7.6.1), and `expect`, which the body already read answers. */
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer", "expect", "content-length"];
/** How long a host waits to connect to the host that holds a session before it gives up. */
export const FORWARD_CONNECT_TIMEOUT_MS = 5_000;

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  const listed = typeof headers.connection === "string" ? headers.connection.split(",").map((name) => name.trim().toLowerCase()) : [];
  for (const name of [...HOP_BY_HOP, ...listed]) delete kept[name];
  return kept;
}

/**
 * Passes a request to the host at `target` (an http or https URL; `path` is added to its path) that holds what it is
 * about (an `/mcp` request's MCP session, an ACP chat's agent session), with its headers (Host and Authorization included, so that host's fence judges the same request) and
 * the body already read (none but for a POST), and streams the answer back as it comes, an SSE stream included.
 * Either side closing early closes the other, so a client that goes away aborts its call there as it would here.
 * Resolves with null once the answer is passed on (or the client went away), or with the error when `target` could
 * not be reached before anything was sent.
 */
export function forwardRequest(request: IncomingMessage, response: ServerResponse, body: Buffer | null, target: URL, path: string): Promise<Error | null> {
  return new Promise((resolve) => {
    if (request.socket.destroyed || response.destroyed) return resolve(null);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const headers = { ...endToEnd(request.headers), [FORWARDED_HEADER]: "1", "content-length": String(body?.length ?? 0) };
    const outgoing = send({ protocol: target.protocol, hostname: target.hostname.replace(/^\[(.*)\]$/, "$1"), port: target.port, path: `${target.pathname.replace(/\/$/, "")}${path}`, method: request.method, headers }, (incoming) => {
      response.writeHead(incoming.statusCode ?? 502, endToEnd(incoming.headers));
      pipeline(incoming, response, () => undefined);
    });
    outgoing.on("socket", (socket) => {
      if (!socket.connecting) return;
      socket.setTimeout(FORWARD_CONNECT_TIMEOUT_MS, () => outgoing.destroy(new Error(`no connection within ${FORWARD_CONNECT_TIMEOUT_MS} ms`)));
      socket.once("connect", () => socket.setTimeout(0));
    });
    outgoing.on("error", (error) => {
      if (response.headersSent) response.destroy();
      resolve(response.headersSent ? null : error);
    });
    response.on("close", () => {
      if (!response.writableFinished) outgoing.destroy();
      resolve(null);
    });
    outgoing.end(body ?? undefined);
  });
}

/** In a cluster: the live host whose process runs an ACP chat's agent session, when it is another host (docs/protocol.md, acp-cluster). */
export type AgentHostOf = (sessionId: string) => Promise<URL | null>;

/**
 * Passes a request about an ACP chat (a prompt, a mode) to the host that runs the chat's agent session, `route` being the
 * path after the chat's. False when this host runs it, or that host could not be reached: nothing was sent, and this host
 * takes the chat over, resuming the agent's session from what it stored.
 */
export async function passToAgentHost(agentHost: AgentHostOf | undefined, log: Logger | undefined, context: RouteContext, sessionId: string, route: "messages" | "mode", body: unknown): Promise<boolean> {
  if (!agentHost || context.request.headers[FORWARDED_HEADER] !== undefined) return false;
  const target = await agentHost(sessionId);
  if (target === null) return false;
  const failed = await forwardRequest(context.request, context.response, Buffer.from(JSON.stringify(body)), target, `/api/sessions/${encodeURIComponent(sessionId)}/${route}`);
  if (failed === null) return true;
  log?.({ event: "acp/forward-failed", sessionId, target: target.origin, route, error: failed.message });
  return false;
}
