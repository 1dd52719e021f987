/** A request target the host can route: the decoded-enough parts of an origin-form URL. */
export interface RequestTarget {
  pathname: string;
  search: URLSearchParams;
}

const BASE = "http://parley.invalid";

/**
 * Parses an HTTP request target without ever throwing. Only origin-form targets (`/path?query`)
 * are routed; `//`, `//@`, `//a:99999/` and the like are paths, never authorities. Anything
 * else (absolute-form, `*`, an empty target, a target the URL parser refuses) is null.
 */
export function parseRequestTarget(raw: string | undefined): RequestTarget | null {
  if (raw === undefined || !raw.startsWith("/")) return null;
  // Most targets (every API call without a query) are a plain path the URL parser would leave as it is: taken as such.
  if (PLAIN_PATH.test(raw)) return { pathname: raw, search: new URLSearchParams() };
  return parseWithUrl(raw);
}

/**
 * Segments of unreserved characters, none of them `.` or `..`: a path the URL parser returns unchanged (it resolves dot
 * segments and encodes or rewrites anything else, so every other target goes through it).
 */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]*)+$/;

/** The target as the WHATWG URL parser reads it against a fixed origin; null when it leaves that origin or fails. */
export function parseWithUrl(raw: string): RequestTarget | null {
  try {
    const url = new URL(BASE + raw);
    if (url.origin !== BASE) return null;
    return { pathname: url.pathname, search: url.searchParams };
  } catch {
    return null;
  }
}

/** `decodeURIComponent` that answers null instead of throwing on malformed percent-encoding. */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
