import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export interface FenceOptions {
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  /** Token mode: who the request is, checked after Host and Origin; absent on an open host. */
  authenticate?: (request: IncomingMessage, rotate: boolean) => Promise<FenceVerdict>;
}

export type FenceRefusal =
  | { ok: false; status: 401 | 403; code: "FORBIDDEN" | "UNAUTHORIZED"; message: string }
  | { ok: false; status: 429; code: "RATE_LIMITED"; message: string; retryAfterSeconds: number };

/** `setCookie`: a rotated login the response should hand back. */
export type FenceVerdict = { ok: true; setCookie?: string } | FenceRefusal;

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);
const HOST_PATTERN = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** The host name of a `Host` header value, lower-cased, brackets kept for IPv6. */
export function hostName(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith("[")) {
    const end = lower.indexOf("]");
    return end === -1 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(":");
  return colon === -1 ? lower : lower.slice(0, colon);
}

/**
 * Whether the request carries more than one `Host` header, which HTTP/1.1 makes a bad request: Node keeps the first,
 * and a proxy in front may have read another, so the fence would check a name nobody else saw.
 */
export function hasManyHosts(request: IncomingMessage): boolean {
  let count = 0;
  for (let index = 0; index < request.rawHeaders.length; index += 2) if (request.rawHeaders[index]!.toLowerCase() === "host") count++;
  return count > 1;
}

/** Whether the `Host` header names this machine (or an allowed host), defeating DNS rebinding. */
export function hostAllowed(request: IncomingMessage, options: FenceOptions): boolean {
  const host = request.headers.host;
  if (!host) return false;
  const lower = host.toLowerCase();
  if (!HOST_PATTERN.test(lower)) return false;
  const name = hostName(lower);
  return LOOPBACK_NAMES.has(name) || options.allowedHosts.some((allowed) => allowed.toLowerCase() === name || allowed.toLowerCase() === lower);
}

/**
 * Makes the rest of a request read `name` as `value`: a login rotated by this request is its replacement from then on, so a
 * subscription the request makes, or the login it ends, is the one the browser keeps.
 */
export function replaceCookie(request: IncomingMessage, name: string, value: string): void {
  const kept = (request.headers.cookie ?? "").split(";").filter((part) => part.trim() !== "" && part.split("=")[0]!.trim() !== name);
  request.headers.cookie = [...kept.map((part) => part.trim()), `${name}=${encodeURIComponent(value)}`].join("; ");
}

/**
 * Every value of the cookie `name` the request carries, in the order sent; a value that is not valid percent-encoding is
 * left out. A request can carry several: browsers keep cookies apart by path but not by port, so a page on another port of
 * the same machine can add its own under the login's name (with a longer path, which browsers send first).
 */
export function readCookies(request: IncomingMessage, name: string): string[] {
  const header = request.headers.cookie;
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index === -1 || part.slice(0, index).trim() !== name) continue;
    try {
      values.push(decodeURIComponent(part.slice(index + 1).trim()));
    } catch {
      // Not a value this host could have set.
    }
  }
  return values;
}

/** The first value of the cookie `name` the request carries (after the fence, the login it was let in with). */
export function readCookie(request: IncomingMessage, name: string): string | null {
  return readCookies(request, name)[0] ?? null;
}

export function tokenMatches(candidate: string | null, token: string): boolean {
  if (candidate === null) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(candidate), digest(token));
}

/** The bearer token of an `Authorization` header (its scheme in any case, as HTTP's schemes are), or null. */
export function bearerToken(request: IncomingMessage): string | null {
  const authorization = request.headers.authorization;
  return authorization !== undefined && /^bearer /i.test(authorization) ? authorization.slice("Bearer ".length).trim() : null;
}

/**
 * Whether a browser sent the request for a page of another site or origin (an image, a frame, a link followed from
 * there): `Sec-Fetch-Site` other than `none` (typed, pasted, scanned, a bookmark) or `same-origin`. Programs send none.
 */
export function fromAnotherOrigin(request: IncomingMessage): boolean {
  const site = request.headers["sec-fetch-site"];
  return site !== undefined && site !== "none" && site !== "same-origin";
}

/**
 * The trust fence (docs/protocol.md) for every `/api` request and the upgrade: host, origin, then who it is. `rotate` false
 * where the response cannot hand a rotated login back: an old login passes as it is, for the next request to rotate. A
 * request another origin's page sent (the same site: another port of this machine) never rotates a login either: that page
 * could drop the answer, so the replacement would never reach the browser and the old login would end with its grace.
 */
export async function checkFence(request: IncomingMessage, options: FenceOptions, rotate = true): Promise<FenceVerdict> {
  if (!hostAllowed(request, options)) return { ok: false, status: 403, code: "FORBIDDEN", message: "the Host header is not a loopback name or an allowed host" };
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const host = (request.headers.host ?? "").toLowerCase();
    const own = origin.toLowerCase() === `http://${host}` || origin.toLowerCase() === `https://${host}`;
    if (!own && !options.allowedOrigins.includes(origin)) return { ok: false, status: 403, code: "FORBIDDEN", message: "cross-origin requests are refused" };
  }
  if (request.headers["sec-fetch-site"] === "cross-site") return { ok: false, status: 403, code: "FORBIDDEN", message: "cross-site requests are refused" };
  return options.authenticate ? options.authenticate(request, rotate && !fromAnotherOrigin(request)) : { ok: true };
}
