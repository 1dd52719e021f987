import type { SessionPage } from "../store";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
const MAX_QUERY_CHARS = 200;

/** The opaque `next` cursor of a session list page: the last session's position. */
export function encodeCursor(position: { updatedAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([position.updatedAt, position.id]), "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { updatedAt: string; id: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string" || typeof value[1] !== "string") return null;
    return { updatedAt: value[0], id: value[1] };
  } catch {
    return null;
  }
}

/** `GET /api/sessions?limit=&before=&q=` as a store page, or the reason the query is refused. */
export function parseSessionPage(search: URLSearchParams): { ok: true; page: SessionPage } | { ok: false; message: string } {
  for (const name of search.keys()) if (name !== "limit" && name !== "before" && name !== "q") return { ok: false, message: `unknown query parameter ${JSON.stringify(name)}: use limit, before and q` };
  const rawLimit = search.get("limit");
  const limit = rawLimit === null ? DEFAULT_PAGE_SIZE : Number(rawLimit);
  if (!/^\d+$/.test(rawLimit ?? "1") || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) return { ok: false, message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` };
  const rawBefore = search.get("before");
  const before = rawBefore === null ? null : decodeCursor(rawBefore);
  if (rawBefore !== null && before === null) return { ok: false, message: "before must be the next cursor of an earlier page" };
  const query = search.get("q")?.trim() ?? "";
  if ([...query].length > MAX_QUERY_CHARS) return { ok: false, message: `q is limited to ${MAX_QUERY_CHARS} characters` };
  return { ok: true, page: { limit, ...(before ? { before } : {}), ...(query ? { query } : {}) } };
}
