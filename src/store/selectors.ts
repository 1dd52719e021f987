import type { ConnectionStatus } from "./state";
import type { Message, PendingRequest, Session } from "../protocol/schemas";
import type { ComposerPrefill, PendingEntry, RetiredRequest, SessionData } from "./state";
import { own } from "./own";
import { toPlanReview } from "../protocol/plan-review";

const NO_MESSAGES: readonly Message[] = Object.freeze([]);
const NO_REQUESTS: readonly PendingRequest[] = Object.freeze([]);

/** What a session's sidebar badge says while something is pending. */
export type SessionBadge = "question" | "plan-review" | null;

export const selectSessions = (state: SessionData): readonly Session[] => state.sessions;
export const selectConnection = (state: SessionData): ConnectionStatus => state.connection;
export const selectAccess = (state: SessionData): SessionData["access"] => state.access;
export const selectHostId = (state: SessionData): string | null => state.hostId;
/** The session's first retired request, whose notice owns the composer slot until dismissed; null when none. */
export const selectFirstRetired = memoisePerSession(
  (sessionId) =>
    (state: SessionData): RetiredRequest | null =>
      own(state.retired, sessionId)?.[0] ?? null,
);
export const selectComposerPrefill = (state: SessionData): ComposerPrefill | null => state.composerPrefill;
/** Whether the session list has a further page to load. */
export const selectHasMoreSessions = (state: SessionData): boolean => state.sessionsCursor !== null;

function memoisePerSession<Selected>(build: (sessionId: string) => (state: SessionData) => Selected) {
  const cache = new Map<string, (state: SessionData) => Selected>();
  return (sessionId: string) => {
    let selector = cache.get(sessionId);
    if (!selector) {
      selector = build(sessionId);
      cache.set(sessionId, selector);
    }
    return selector;
  };
}

/** The session with this id, or undefined. */
export const selectSession = memoisePerSession(
  (sessionId) =>
    (state: SessionData): Session | undefined =>
      state.sessions.find((session) => session.id === sessionId),
);

/** The session's messages in order; the same array until one of them changes. */
export const selectTranscript = memoisePerSession(
  (sessionId) =>
    (state: SessionData): readonly Message[] =>
      own(state.transcripts, sessionId) ?? NO_MESSAGES,
);

const requestsOf = new WeakMap<readonly PendingEntry[], readonly PendingRequest[]>();

/** The session's pending requests in arrival order; the same array until one arrives or leaves. */
export const selectPendingRequests = memoisePerSession((sessionId) => (state: SessionData): readonly PendingRequest[] => {
  const entries = own(state.pending, sessionId);
  if (!entries || entries.length === 0) return NO_REQUESTS;
  let requests = requestsOf.get(entries);
  if (!requests) {
    requests = entries.map((entry) => entry.request);
    requestsOf.set(entries, requests);
  }
  return requests;
});

/** Whether a request is a plan review, shown as the decision card rather than the wizard. */
export function isPlanReview(request: PendingRequest): boolean {
  return toPlanReview(request) !== null;
}

/** The badge for the session's first pending request. */
export const selectSessionBadge = memoisePerSession((sessionId) => (state: SessionData): SessionBadge => {
  const first = own(state.pending, sessionId)?.[0];
  if (!first) return null;
  return isPlanReview(first.request) ? "plan-review" : "question";
});

/** Every pending rpcId across sessions (for cleaning up drafts of requests that left). */
export function pendingRpcIds(state: SessionData): Set<string> {
  const ids = new Set<string>();
  for (const entries of Object.values(state.pending)) for (const entry of entries) ids.add(entry.request.rpcId);
  return ids;
}
