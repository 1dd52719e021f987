import { createStore, type StoreApi } from "zustand/vanilla";
import type { ComposerPrefill, ConnectionStatus, RetiredRequest } from "./state";
import type { DownFrame, Message, Session } from "../protocol/schemas";
import { applyFetchedSession, applyFrame, applySessions, applySessionsPage, applyTranscript } from "./apply-frame";
import { initialSessionData, type SessionData } from "./state";

/** Synchronous actions; sockets and fetches live in `client/` and call these. */
export interface SessionActions {
  applyFrame(frame: DownFrame): void;
  /** Applies frames in order as one change, so what shows them renders once. */
  applyFrames(frames: readonly DownFrame[]): void;
  /**
   * The downlink's status as the user sees it: an attempt to reconnect while offline stays offline, so the banner and
   * its `Retry now` (perhaps holding keyboard focus) do not flicker away at every attempt.
   */
  setConnection(status: ConnectionStatus): void;
  setAccess(access: SessionData["access"]): void;
  /** `live`: ids that frames changed since the fetch started; their current versions win. */
  /** Replaces the list with its first page; `cursor` names the next page (null: none). */
  loadSessions(sessions: readonly Session[], live?: ReadonlySet<string>, cursor?: string | null): void;
  /** Adds a further page of the list and its cursor. */
  loadMoreSessions(sessions: readonly Session[], cursor: string | null, live?: ReadonlySet<string>): void;
  loadSession(session: Session, live?: ReadonlySet<string>): void;
  loadTranscript(sessionId: string, messages: readonly Message[], live?: ReadonlySet<string>): void;
  /** Keeps requests that left while this tab held drafts for them, each under its session. */
  retireRequests(retired: readonly RetiredRequest[]): void;
  /**
   * Brings back notices a previous load of this tab kept, retired under the host `hostId` (null: unknown). When this
   * load has met a different host already, the ones that stopped waiting are blamed on its restart; when it has met
   * none yet, it takes `hostId` as the host it last knew, so a different host's hello blames the restart then.
   */
  restoreRetired(retired: readonly RetiredRequest[], hostId: string | null): void;
  /** A new host said hello: requests that stopped waiting did so because the host went away. */
  blameHostRestart(): void;
  /** The user dismissed a retired request's notice. */
  dismissRetired(rpcId: string): void;
  /** Hands text to a session's composer, which adds it to what it holds. */
  prefillComposer(sessionId: string, text: string): void;
  /** The composer took this prefill; a newer one stays. */
  clearComposerPrefill(taken: ComposerPrefill): void;
}

/** What the store holds: the data of state.ts and the actions that change it. */
export type SessionStoreState = SessionData & SessionActions;
export type SessionStore = StoreApi<SessionStoreState>;

/** Creates one store; the app makes one per page and each test its own. */
export function createSessionStore(initial: Partial<SessionData> = {}): SessionStore {
  return createStore<SessionStoreState>()((set) => ({
    ...initialSessionData,
    ...initial,
    applyFrame: (frame) => set((state) => applyFrame(state, frame)),
    applyFrames: (frames) => set((state) => frames.reduce((current, frame) => applyFrame(current, frame), state)),
    setConnection: (connection) => set((state) => (state.connection === connection || (state.connection === "offline" && connection === "connecting") ? state : { ...state, connection })),
    setAccess: (access) => set((state) => (state.access === access ? state : { ...state, access })),
    loadSessions: (sessions, live, cursor) => set((state) => applySessions(state, sessions, live, cursor ?? null)),
    loadMoreSessions: (sessions, cursor, live) => set((state) => applySessionsPage(state, sessions, cursor, live)),
    loadSession: (session, live) => set((state) => applyFetchedSession(state, session, live)),
    loadTranscript: (sessionId, messages, live) => set((state) => applyTranscript(state, sessionId, messages, live)),
    retireRequests: (retired) => set((state) => ({ ...state, retired: addRetired(state.retired, retired) })),
    restoreRetired: (retired, hostId) =>
      set((state) => {
        const restarted = hostId !== null && state.hostId !== null && state.hostId !== hostId;
        return { ...state, retired: addRetired(state.retired, restarted ? retired.map(blameRestart) : retired), hostId: state.hostId ?? hostId };
      }),
    blameHostRestart: () => set((state) => ({ ...state, retired: relabelStopped(state.retired) })),
    dismissRetired: (rpcId) => set((state) => ({ ...state, retired: removeRetired(state.retired, rpcId) })),
    prefillComposer: (sessionId, text) => set((state) => ({ ...state, composerPrefill: { sessionId, text } })),
    clearComposerPrefill: (taken) => set((state) => (state.composerPrefill === taken ? { ...state, composerPrefill: null } : state)),
  }));
}

function addRetired(held: Record<string, RetiredRequest[]>, retired: readonly RetiredRequest[]): Record<string, RetiredRequest[]> {
  const next = new Map(Object.entries(held));
  for (const entry of retired) {
    const sessionId = entry.request.sessionId;
    const list = next.get(sessionId) ?? [];
    if (!list.some((kept) => kept.request.rpcId === entry.request.rpcId)) next.set(sessionId, [...list, entry]);
  }
  return Object.fromEntries(next);
}

function removeRetired(held: Record<string, RetiredRequest[]>, rpcId: string): Record<string, RetiredRequest[]> {
  const next: [string, RetiredRequest[]][] = [];
  for (const [sessionId, list] of Object.entries(held)) {
    const kept = list.filter((entry) => entry.request.rpcId !== rpcId);
    if (kept.length > 0) next.push([sessionId, kept.length === list.length ? list : kept]);
  }
  return Object.fromEntries(next);
}

/** A request that stopped waiting did so because its host went away. */
const blameRestart = (entry: RetiredRequest): RetiredRequest => (entry.reason === "stopped" ? { ...entry, reason: "host-restarted" } : entry);

function relabelStopped(held: Record<string, RetiredRequest[]>): Record<string, RetiredRequest[]> {
  return Object.fromEntries(Object.entries(held).map(([sessionId, list]) => [sessionId, list.map(blameRestart)]));
}
