import { createStore, type StoreApi } from "zustand/vanilla";
import type { ComposerPrefill, ConnectionStatus } from "./state";
import type { DownFrame, Message, Session } from "../protocol/schemas";
import { applyFetchedSession, applyFrame, applySessions, applySessionsPage, applyTranscript } from "./apply-frame";
import { initialSessionData, type SessionData } from "./state";

/** Synchronous actions; sockets and fetches live in `client/` and call these. */
export interface SessionActions {
  applyFrame(frame: DownFrame): void;
  setConnection(status: ConnectionStatus): void;
  /** `live`: ids that frames changed since the fetch started; their current versions win. */
  /** Replaces the list with its first page; `cursor` names the next page (null: none). */
  loadSessions(sessions: readonly Session[], live?: ReadonlySet<string>, cursor?: string | null): void;
  /** Adds a further page of the list and its cursor. */
  loadMoreSessions(sessions: readonly Session[], cursor: string | null, live?: ReadonlySet<string>): void;
  loadSession(session: Session, live?: ReadonlySet<string>): void;
  loadTranscript(sessionId: string, messages: readonly Message[], live?: ReadonlySet<string>): void;
  /** Hands text to a session's composer, which adds it to what it holds. */
  prefillComposer(sessionId: string, text: string): void;
  /** The composer took this prefill; a newer one stays. */
  clearComposerPrefill(taken: ComposerPrefill): void;
}

export type SessionState = SessionData & SessionActions;
export type SessionStore = StoreApi<SessionState>;

/** Creates one store; the app makes one per page and each test its own. */
export function createSessionStore(initial: Partial<SessionData> = {}): SessionStore {
  return createStore<SessionState>()((set) => ({
    ...initialSessionData,
    ...initial,
    applyFrame: (frame) => set((state) => applyFrame(state, frame)),
    setConnection: (connection) => set((state) => (state.connection === connection ? state : { ...state, connection })),
    loadSessions: (sessions, live, cursor) => set((state) => applySessions(state, sessions, live, cursor ?? null)),
    loadMoreSessions: (sessions, cursor, live) => set((state) => applySessionsPage(state, sessions, cursor, live)),
    loadSession: (session, live) => set((state) => applyFetchedSession(state, session, live)),
    loadTranscript: (sessionId, messages, live) => set((state) => applyTranscript(state, sessionId, messages, live)),
    prefillComposer: (sessionId, text) => set((state) => ({ ...state, composerPrefill: { sessionId, text } })),
    clearComposerPrefill: (taken) => set((state) => (state.composerPrefill === taken ? { ...state, composerPrefill: null } : state)),
  }));
}
