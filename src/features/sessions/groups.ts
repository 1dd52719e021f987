import type { Session } from "../../protocol/schemas";

/** Where a chat is listed: waiting for an answer (pinned on top), else by the local day it last changed. */
export type SessionGroupKey = "waiting" | "today" | "yesterday" | "earlier";

export interface SessionGroup {
  key: SessionGroupKey;
  sessions: Session[];
}

const ORDER: readonly SessionGroupKey[] = ["waiting", "today", "yesterday", "earlier"];

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** The day group of a moment, in the viewer's time zone. */
export function dayGroup(iso: string, now: Date): Exclude<SessionGroupKey, "waiting"> {
  const at = Date.parse(iso);
  const today = startOfDay(now);
  if (Number.isNaN(at) || at >= today) return "today";
  const yesterday = startOfDay(new Date(today - 1));
  return at >= yesterday ? "yesterday" : "earlier";
}

/**
 * The list's groups in order, empty ones left out: chats waiting for an answer first, then Today,
 * Yesterday and Earlier; each keeps the list's own order (newest first).
 */
export function groupSessions(sessions: readonly Session[], waiting: ReadonlySet<string>, now: Date): SessionGroup[] {
  const byKey = new Map<SessionGroupKey, Session[]>(ORDER.map((key) => [key, []]));
  for (const session of sessions) byKey.get(waiting.has(session.id) ? "waiting" : dayGroup(session.updatedAt, now))!.push(session);
  return ORDER.flatMap((key) => {
    const list = byKey.get(key)!;
    return list.length === 0 ? [] : [{ key, sessions: list }];
  });
}
