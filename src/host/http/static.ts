import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";

const CONTENT_TYPES: ReadonlyMap<string, string> = new Map(Object.entries({
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
}));

/** The Content-Security-Policy of every HTML page: same-origin only, no inline script. */
export function contentSecurityPolicy(host: string | undefined): string {
  const sockets = host ? ` ws://${host} wss://${host}` : "";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

const COMMON_HEADERS = { "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

export const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Parley</title></head>
<body>
<h1>Parley host is running</h1>
<p>The browser app is not built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it), then reload.</p>
</body>
</html>
`;

async function fileAt(target: string): Promise<string | null> {
  try {
    return (await stat(target)).isFile() ? target : null;
  } catch {
    return null;
  }
}

function sendHtml(request: IncomingMessage, response: ServerResponse, body: Buffer | string, status = 200) {
  response.writeHead(status, {
    ...COMMON_HEADERS,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": contentSecurityPolicy(request.headers.host),
    "Cache-Control": "no-cache",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(request.method === "HEAD" ? undefined : body);
}

/** Serves the Vite build from `root`; any other GET gets index.html (the app routes `/` and `/demo`), but a missing file under `/assets/` a 404. */
export function createStaticHandler(root: string) {
  const base = path.resolve(root);
  return async (request: IncomingMessage, response: ServerResponse, pathname: string) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { ...COMMON_HEADERS, Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
      response.end("Method Not Allowed\n");
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      response.writeHead(400, { ...COMMON_HEADERS, "Content-Type": "text/plain; charset=utf-8" });
      response.end("Bad Request\n");
      return;
    }
    const target = path.resolve(base, `.${path.posix.normalize(`/${decoded}`)}`);
    const inside = target.startsWith(base + path.sep) && !decoded.includes("\0");
    const file = inside ? await fileAt(target) : null;
    if (file && path.extname(file) !== ".html") {
      const body = await readFile(file);
      const immutable = path.relative(base, file).startsWith(`assets${path.sep}`);
      response.writeHead(200, {
        ...COMMON_HEADERS,
        "Content-Type": CONTENT_TYPES.get(path.extname(file).toLowerCase()) ?? "application/octet-stream",
        "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        "Content-Length": body.length,
      });
      response.end(request.method === "HEAD" ? undefined : body);
      return;
    }
    if (!file && /^\/assets\//.test(path.posix.normalize(`/${decoded}`))) {
      // A build's asset that is not here (a page of another build asked for it, as in a rolling upgrade): never the app's
      // page under a script's name, which a cache would keep.
      response.writeHead(404, { ...COMMON_HEADERS, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
      response.end(request.method === "HEAD" ? undefined : "Not Found\n");
      return;
    }
    const page = file ?? (await fileAt(path.join(base, "index.html")));
    sendHtml(request, response, page ? await readFile(page) : MISSING_BUILD_PAGE);
  };
}
