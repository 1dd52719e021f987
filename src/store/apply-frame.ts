import type { DownFrame, Message, Session } from "../protocol/schemas";
import type { PendingEntry, SessionData } from "./state";
import { own } from "./own";

/** Applies one downlink frame; returns the same state when nothing changed. */
export function applyFrame<State extends SessionData>(state: State, frame: DownFrame): State {
  switch (frame.type) {
    case "hello": {
      if (state.hostId !== null && state.hostId !== frame.hostId) {
        return { ...state, hostId: frame.hostId, pending: {} };
      }
      return { ...state, hostId: frame.hostId, pending: mapPending(state.pending, (entry) => (entry.confirmed ? { ...entry, confirmed: false } : entry)) };
    }
    case "question/requested": {
      const { type: _type, ...request } = frame;
      const held = own(state.pending, request.sessionId) ?? [];
      const index = held.findIndex((entry) => entry.request.rpcId === request.rpcId);
      if (index >= 0) {
        if (held[index]!.confirmed) return state;
        const next = held.slice();
        next[index] = { request: held[index]!.request, confirmed: true };
        return { ...state, pending: { ...state.pending, [request.sessionId]: next } };
      }
      return { ...state, pending: { ...state.pending, [request.sessionId]: [...held, { request, confirmed: true }] } };
    }
    case "synced":
      return { ...state, pending: mapPending(state.pending, (entry) => (entry.confirmed ? entry : null)) };
    case "question/resolved": {
      const pending = mapPending(state.pending, (entry) => (entry.request.rpcId === frame.rpcId ? null : entry));
      return pending === state.pending ? state : { ...state, pending };
    }
    case "session/upserted":
      return { ...state, sessions: upsertSession(state.sessions, frame.session) };
    case "session/deleted": {
      const { [frame.sessionId]: _transcript, ...transcripts } = state.transcripts;
      const { [frame.sessionId]: _pending, ...pending } = state.pending;
      return { ...state, sessions: state.sessions.filter((session) => session.id !== frame.sessionId), transcripts, pending };
    }
    case "message/upserted": {
      const { message } = frame;
      const messages = own(state.transcripts, message.sessionId) ?? [];
      return { ...state, transcripts: { ...state.transcripts, [message.sessionId]: withMessage(messages, message.id, () => message) } };
    }
    case "message/delta": {
      const messages = own(state.transcripts, frame.sessionId) ?? [];
      const next = withMessage(messages, frame.messageId, (current) =>
        current ? { ...current, text: (current.text ?? "") + frame.text } : { id: frame.messageId, sessionId: frame.sessionId, role: "assistant", createdAt: "", text: frame.text },
      );
      return { ...state, transcripts: { ...state.transcripts, [frame.sessionId]: next } };
    }
    default:
      frame satisfies never;
      return state;
  }
}

const NOTHING_LIVE: ReadonlySet<string> = new Set();

/**
 * Replaces the session list with a fetched one. `live` names sessions that frames changed after the
 * fetch started: their current version (or their absence, once deleted) wins over the fetched one.
 */
export function applySessions<State extends SessionData>(
  state: State,
  fetched: readonly Session[],
  live: ReadonlySet<string> = NOTHING_LIVE,
  cursor: string | null = null,
): State {
  const merged = [...fetched.filter((session) => !live.has(session.id)), ...state.sessions.filter((session) => live.has(session.id))];
  return { ...state, sessions: sortNewestFirst(merged), sessionsCursor: cursor };
}

/**
 * Adds a further page of the list. A session already held stays as it is (frames keep it current);
 * `live` sessions that frames deleted after the fetch started stay deleted.
 */
export function applySessionsPage<State extends SessionData>(
  state: State,
  page: readonly Session[],
  cursor: string | null,
  live: ReadonlySet<string> = NOTHING_LIVE,
): State {
  const held = new Set(state.sessions.map((session) => session.id));
  const added = page.filter((session) => !held.has(session.id) && !live.has(session.id));
  return { ...state, sessions: added.length === 0 ? state.sessions : sortNewestFirst([...state.sessions, ...added]), sessionsCursor: cursor };
}

/**
 * Upserts one fetched session unless a frame changed it after the fetch started: an upsert frame left the newer
 * version in the list, and a deletion frame took it out, so the fetched copy must not bring it back.
 */
export function applyFetchedSession<State extends SessionData>(state: State, session: Session, live: ReadonlySet<string> = NOTHING_LIVE): State {
  if (live.has(session.id)) return state;
  return { ...state, sessions: upsertSession(state.sessions, session, false) };
}

/**
 * Merges a fetched transcript with what frames delivered: the fetch is the base, a message that frames
 * changed after the fetch started (`live`) keeps its current version, and messages the fetch did not have stay at the end.
 */
export function applyTranscript<State extends SessionData>(
  state: State,
  sessionId: string,
  fetched: readonly Message[],
  live: ReadonlySet<string> = NOTHING_LIVE,
): State {
  const current = own(state.transcripts, sessionId) ?? [];
  const currentById = new Map(current.map((message) => [message.id, message]));
  const fetchedIds = new Set(fetched.map((message) => message.id));
  const merged = fetched.map((message) => (live.has(message.id) ? (currentById.get(message.id) ?? message) : message));
  for (const message of current) if (!fetchedIds.has(message.id)) merged.push(message);
  return { ...state, transcripts: { ...state.transcripts, [sessionId]: merged } };
}

function mapPending(
  pending: Record<string, PendingEntry[]>,
  map: (entry: PendingEntry) => PendingEntry | null,
): Record<string, PendingEntry[]> {
  let changed = false;
  const next: [string, PendingEntry[]][] = [];
  for (const [sessionId, entries] of Object.entries(pending)) {
    const mapped: PendingEntry[] = [];
    let sessionChanged = false;
    for (const entry of entries) {
      const result = map(entry);
      if (result !== entry) sessionChanged = true;
      if (result) mapped.push(result);
    }
    if (sessionChanged) changed = true;
    if (mapped.length > 0) next.push([sessionId, sessionChanged ? mapped : entries]);
    else if (entries.length > 0) changed = true;
  }
  return changed ? Object.fromEntries(next) : pending;
}

/**
 * Puts a chat's row in the list. A copy older than the one held (a lower revision) keeps the held row's fields
 * (docs/protocol.md, session-revision): a frame's state is still taken, as frames' states follow the order they come in
 * (another host's frame of an older write may carry a newer state); an HTTP answer's (`frame` false) is not, as it is
 * as old as its row.
 */
function upsertSession(sessions: Session[], session: Session, frame = true): Session[] {
  const index = sessions.findIndex((candidate) => candidate.id === session.id);
  if (index < 0) return sortNewestFirst([session, ...sessions]);
  const held = sessions[index]!;
  const older = held.revision !== undefined && session.revision !== undefined && session.revision < held.revision;
  if (older && (!frame || held.state === session.state)) return sessions;
  const next = sessions.slice();
  next[index] = older ? { ...held, state: session.state } : session;
  return sortNewestFirst(next);
}

/** Newest activity first, as the host pages the list; ties by id, descending. */
function sortNewestFirst(sessions: Session[]): Session[] {
  return sessions.sort((a, b) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.updatedAt < b.updatedAt ? 1 : -1));
}

/**
 * Where each message id sits (its last place, should an id repeat), kept for the newest array of a transcript only: an
 * array made from it takes the index over, so a frame for a chat of thousands of rows finds its row without a scan. An
 * array made any other way is indexed once, on its first frame.
 */
const positions = new WeakMap<readonly Message[], Map<string, number>>();

/** `messages` with the message `id` replaced by `make(it)`, or with `make(undefined)` appended when it is not there. */
function withMessage(messages: readonly Message[], id: string, make: (current: Message | undefined) => Message): Message[] {
  const at = positions.get(messages) ?? new Map(messages.map((message, index) => [message.id, index]));
  positions.delete(messages);
  const index = at.get(id);
  const next = messages.slice();
  if (index === undefined) at.set(id, next.push(make(undefined)) - 1);
  else next[index] = make(messages[index]);
  positions.set(next, at);
  return next;
}
