import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";

/** Set on a request one host passes to another, which then never passes it on again. */
export const FORWARDED_HEADER = "x-parley-forwarded";
/** Headers of one connection, not of the request or the answer (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of HOP_BY_HOP) delete kept[name];
  return kept;
}

/**
 * Passes an `/mcp` request to the host at `target` that holds its MCP session, with its headers (Host and
 * Authorization included, so that host's fence judges the same request) and the body already read, and streams
 * the answer back as it comes, an SSE stream included. Either side closing early closes the other, so a client
 * that goes away aborts its call there as it would here. Resolves with null once the answer is passed on, or
 * with the error when `target` could not be reached before anything was sent.
 */
export function forwardMcp(request: IncomingMessage, response: ServerResponse, body: Buffer | null, target: string): Promise<Error | null> {
  return new Promise((resolve) => {
    const url = new URL("/mcp", target);
    const headers = { ...endToEnd(request.headers), [FORWARDED_HEADER]: "1", ...(body ? { "content-length": String(body.length) } : {}) };
    const outgoing = httpRequest({ hostname: url.hostname, port: url.port, path: url.pathname, method: request.method, headers }, (incoming) => {
      response.writeHead(incoming.statusCode ?? 502, endToEnd(incoming.headers));
      incoming.pipe(response);
      incoming.on("error", () => response.destroy());
      incoming.on("aborted", () => response.destroy());
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
