import type { DownFrame, PendingRequest, Receipt, RespondRequest } from "../protocol/schemas";
import { pendingRpcIds } from "../store/selectors";
import type { SessionStore } from "../store/session-store";
import type { RetiredRequest, RetireReason } from "../store/state";
import { ApiError, type Api, type SessionsPage } from "./api";
import { createLiveTouches } from "./live-touches";
import type { MuxConnection, MuxOptions } from "./mux";
import { createStreamedText, isHeld, nextPaint, type Schedule } from "./streamed-text";
import { createUndoableDeletes, type DeleteTimers } from "./undoable-delete";

/** Sessions per page of the sidebar's list. */
export const SESSIONS_PAGE_SIZE = 50;

/** What the engine tells its owner; a closed set, so a `switch` over it ends in `satisfies never`. */
export type SessionEngineEvent =
  /** The open session (or one just opened) is not on the host. */
  | { type: "session-missing"; sessionId: string }
  /** A list page or a session could not be loaded. */
  | { type: "load-failed"; error: unknown }
  /** The list and the open session loaded: an earlier load problem is over. */
  | { type: "loaded" }
  /** The host refused to delete a session; it is shown again. */
  | { type: "delete-failed"; sessionId: string; error: unknown }
  /** The engine wants another session open (null: the new chat); the owner answers with `open`. */
  | { type: "navigate"; sessionId: string | null }
  /** Pending requests left while this tab held drafts for them; they are retired in the store. */
  | { type: "requests-left"; retired: readonly RetiredRequest[] }
  /** The sessions hidden by a delete that can still be undone. */
  | { type: "hidden-sessions"; sessionIds: ReadonlySet<string> }
  /** The host's replay of pending requests is in, after a socket opened. */
  | { type: "synced" }
  /** The store holds every request pending on the host, these: after its replay, and after each resolve. */
  | { type: "pending-known"; rpcIds: readonly string[] };

export type SessionEngineListener = (event: SessionEngineEvent) => void;

export interface SessionEngineOptions {
  store: SessionStore;
  api: Api;
  connect: (options: MuxOptions) => MuxConnection;
  /** The downlink's URL, `muxUrl(window.location)` in the browser. */
  url: string;
  /** The composers' unsent text per session; the first send of a new chat moves its text to the session it creates. */
  drafts: Map<string, string>;
  /** The key of the new chat's text in `drafts`. */
  newChatDraftKey: string;
  /**
   * Decides per request a frame removed whether its question drafts are kept for a notice (true) or deleted, or wait
   * for the receipt of this tab's response to it, still in flight ("after-receipt", settled by `settleResponse`).
   */
  retireDraft: (rpcId: string, reason: RetireReason | null) => boolean | "after-receipt";
  /**
   * A response's receipt came (`done`: taken, or a cancel found the request gone) or the request failed: the reason to
   * show a notice with, when the request left while it was in flight and its drafts are kept; else null. Default: null.
   */
  settleResponse?: (rpcId: string, done: boolean) => RetireReason | null;
  /** Timers of the delete undo window; defaults to the real ones. */
  deleteTimers?: DeleteTimers;
  /** When streamed text held since the last paint is applied; defaults to the next animation frame. */
  scheduleStreamed?: Schedule;
}

/** The browser's sync logic without React: one per app, driven by the app or the demo alike. */
export interface SessionEngine {
  /** Opens the downlink; every `hello` re-baselines the list and the open session. */
  start(): void;
  /** Closes the downlink and deletes on the host what still waits in the undo window. Can be started again. */
  close(): void;
  /** Makes `sessionId` the open session and loads it; null is the new chat. */
  open(sessionId: string | null): void;
  /** Sends a message; a null session is the new chat: a session is created first and `navigate` names it. */
  send(sessionId: string | null, text: string): Promise<void>;
  stop(sessionId: string): Promise<void>;
  /** Answers or cancels a pending request; the store changes only when `question/resolved` arrives. */
  respond(body: RespondRequest): Promise<Receipt>;
  rename(sessionId: string, title: string): Promise<void>;
  /** One page of sessions matching `query`; `before` is the cursor of the page. */
  search(query: string, before?: string): Promise<SessionsPage>;
  /** Loads the list's next page into the store, if there is one and no load of it is running. */
  loadMore(): Promise<void>;
  /** Hides the session at once and deletes it on the host after the undo window; navigates away if it was open. */
  requestDelete(sessionId: string): void;
  /** Brings a hidden session back and navigates to it; false when it is already gone. */
  undoDelete(sessionId: string): boolean;
  /** Deletes at once every session still in the undo window (the page is going away). */
  flushDeletes(): void;
  /** Reconnects at once instead of waiting for the backoff. */
  retryNow(): void;
  on(listener: SessionEngineListener): () => void;
}

/** Why a frame removed a pending request, when that is worth telling a tab that held drafts for it. */
export function retireReasonOf(frame: DownFrame): RetireReason | null {
  switch (frame.type) {
    case "question/resolved":
      if (frame.outcome === "answered") return "answered-elsewhere";
      if (frame.outcome === "cancelled") return "dismissed-elsewhere";
      return frame.cause === "host-lost" ? "host-lost" : "stopped";
    case "synced":
      return "resolved-away";
    case "hello":
      return "host-restarted";
    default:
      return null;
  }
}

/**
 * Applies a frame; for every request it removed, `retire` decides whether the saved drafts are kept
 * for a notice (true) or deleted, and the kept ones are retired in the store and returned.
 */
export function applyFrameAndForgetDrafts(
  store: SessionStore,
  frame: DownFrame,
  retire: (rpcId: string, reason: RetireReason | null) => boolean | "after-receipt",
  afterReceipt?: (request: PendingRequest) => void,
  tell: (rpcId: string, reason: RetireReason | null) => RetireReason | null = (_rpcId, reason) => reason,
): RetiredRequest[] {
  const { pending: before, hostId } = store.getState();
  store.getState().applyFrame(frame);
  // A host that shuts down aborts what it holds before it goes; its successor's hello says why.
  if (frame.type === "hello" && hostId !== null && hostId !== frame.hostId) store.getState().blameHostRestart();
  if (Object.keys(before).length === 0) return [];
  const after = pendingRpcIds(store.getState());
  const kept: RetiredRequest[] = [];
  for (const entries of Object.values(before)) {
    for (const { request } of entries) {
      if (after.has(request.rpcId)) continue;
      const reason = tell(request.rpcId, retireReasonOf(frame));
      const decision = retire(request.rpcId, reason);
      if (decision === "after-receipt") afterReceipt?.(request);
      else if (decision && reason !== null) kept.push({ request, reason });
    }
  }
  if (kept.length > 0) store.getState().retireRequests(kept);
  return kept;
}

/** A socket the host refuses looks like a network failure; the health route says whether it wants a login. */
export async function checkAccess(api: Api, store: SessionStore): Promise<void> {
  try {
    await api.health();
    store.getState().setAccess("open");
  } catch (error) {
    if (error instanceof ApiError && error.code === "UNAUTHORIZED") store.getState().setAccess("login-required");
  }
}

type LoadResult = SessionEngineEvent & { type: "loaded" | "load-failed" | "session-missing" };

/**
 * This tab's responses. A request a frame removed while this tab's response to it was in flight has its drafts settled
 * by the receipt: a response not taken (another tab's came first, the turn stopped, the host went) keeps them for a notice.
 */
function trackResponses(api: Api, settle: SessionEngineOptions["settleResponse"], retire: (retired: RetiredRequest[]) => void) {
  /** Requests that left while a response to them was in flight, by rpcId. */
  const awaiting = new Map<string, PendingRequest>();
  /** Requests still pending whose answer from this tab got no receipt: the host may have taken it. */
  const unconfirmed = new Set<string>();
  /** Why a request left as this tab tells it: answered after this tab's answer got no receipt, perhaps by that answer. */
  const tell = (rpcId: string, reason: RetireReason | null): RetireReason | null => {
    const maybeOurs = unconfirmed.delete(rpcId);
    return reason === "answered-elsewhere" && maybeOurs ? "answered-unconfirmed" : reason;
  };
  return {
    afterReceipt(request: PendingRequest) {
      awaiting.set(request.rpcId, request);
    },
    tell,
    async respond(body: RespondRequest): Promise<Receipt> {
      let done = false;
      // Whether the host answered this attempt (a receipt, or a refusal of its own), and whether that shows the request
      // was still pending, so an earlier attempt with no receipt was not the answer taken.
      let heard = false;
      let pending = false;
      try {
        const receipt = await api.respond(body);
        heard = true;
        pending = receipt.accepted || receipt.reason === "bad-response";
        // A cancel that finds the request gone did what it was for: the request is not waiting any more.
        done = receipt.accepted || (body.type === "cancel" && receipt.reason === "not-pending");
        return receipt;
      } catch (error) {
        // Not the host's own words: a proxy's page (`HTTP_*`) or a reply that could not be read.
        heard = error instanceof ApiError && !error.code.startsWith("HTTP_") && error.code !== "INVALID_RESPONSE";
        throw error;
      } finally {
        const left = awaiting.get(body.rpcId);
        awaiting.delete(body.rpcId);
        const reason = settle?.(body.rpcId, done) ?? null;
        // No receipt came (the connection failed, a proxy answered for the host): the answer taken may be this one,
        // whether the request left before (told now) or leaves later (told by its frame).
        if (!heard && body.type === "answer") unconfirmed.add(body.rpcId);
        if (pending) unconfirmed.delete(body.rpcId);
        if (left !== undefined) {
          const told = tell(body.rpcId, reason);
          if (told !== null) retire([{ request: left, reason: told }]);
        }
      }
    },
  };
}

export function createSessionEngine(options: SessionEngineOptions): SessionEngine {
  const { store, api, drafts } = options;
  const listeners = new Set<SessionEngineListener>();
  const touches = createLiveTouches();
  let mux: MuxConnection | null = null;
  let active: string | null = null;
  let loadingMore = false;

  const streamed = createStreamedText((frames) => store.getState().applyFrames(frames), options.scheduleStreamed ?? nextPaint);
  const emit = (event: SessionEngineEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  const responses = trackResponses(api, options.settleResponse, (retired) => {
    store.getState().retireRequests(retired);
    emit({ type: "requests-left", retired });
  });

  const deletes = createUndoableDeletes({
    remove: (sessionId) => api.deleteSession(sessionId),
    onChange: (sessionIds) => emit({ type: "hidden-sessions", sessionIds }),
    onError: (sessionId, error) => emit({ type: "delete-failed", sessionId, error }),
    ...(options.deleteTimers === undefined ? {} : { timers: options.deleteTimers }),
  });

  async function loadSession(sessionId: string): Promise<LoadResult> {
    try {
      const mark = touches.mark();
      const { session, messages } = await api.getSession(sessionId);
      streamed.flush();
      const live = touches.since(mark);
      // A frame deleted it while the fetch was in flight: the frame already moved the tab off it.
      if (live.has(sessionId) && !store.getState().sessions.some((held) => held.id === sessionId)) return { type: "session-missing", sessionId };
      store.getState().loadSession(session, live);
      store.getState().loadTranscript(sessionId, messages, live);
      return { type: "loaded" };
    } catch (error) {
      if (error instanceof ApiError && error.code === "NOT_FOUND") {
        if (active === sessionId) emit({ type: "navigate", sessionId: null });
        return { type: "session-missing", sessionId };
      }
      return { type: "load-failed", error };
    }
  }

  async function rebaseline(): Promise<LoadResult> {
    try {
      const mark = touches.mark();
      const page = await api.listSessions({ limit: SESSIONS_PAGE_SIZE });
      streamed.flush();
      store.getState().loadSessions(page.sessions, touches.since(mark), page.next);
    } catch (error) {
      return { type: "load-failed", error };
    }
    return active === null ? { type: "loaded" } : loadSession(active);
  }

  function onFrame(frame: DownFrame) {
    touches.record(frame);
    if (isHeld(frame)) return streamed.add(frame);
    streamed.flush();
    const retired = applyFrameAndForgetDrafts(store, frame, options.retireDraft, responses.afterReceipt, responses.tell);
    if (retired.length > 0) emit({ type: "requests-left", retired });
    if (frame.type === "hello") void rebaseline().then(emit);
    if (frame.type === "synced") emit({ type: "synced" });
    if (frame.type === "synced" || frame.type === "question/resolved") emit({ type: "pending-known", rpcIds: [...pendingRpcIds(store.getState())] });
    if (frame.type === "session/deleted" && frame.sessionId === active) emit({ type: "navigate", sessionId: null });
  }

  return {
    start() {
      if (mux !== null) return;
      mux = options.connect({
        url: options.url,
        onStatus: (status) => {
          store.getState().setConnection(status);
          if (status === "online") store.getState().setAccess("open");
          if (status === "offline") void checkAccess(api, store);
        },
        onFrame,
      });
    },
    close() {
      streamed.flush();
      const last = mux;
      mux = null;
      last?.close();
      deletes.flush();
    },
    open(sessionId) {
      active = sessionId;
      if (sessionId !== null) void loadSession(sessionId).then(emit);
    },
    async send(sessionId, text) {
      let target = sessionId;
      if (target === null) {
        const session = await api.createSession();
        store.getState().applyFrame({ type: "session/upserted", session });
        target = session.id;
        const typedSince = drafts.get(options.newChatDraftKey);
        drafts.delete(options.newChatDraftKey);
        if (typedSince !== undefined) drafts.set(target, typedSince);
        emit({ type: "navigate", sessionId: target });
      }
      const message = await api.postMessage(target, text);
      store.getState().applyFrame({ type: "message/upserted", message });
    },
    async stop(sessionId) {
      await api.abort(sessionId);
    },
    respond: (body) => responses.respond(body),
    async rename(sessionId, title) {
      const session = await api.renameSession(sessionId, title);
      // An answer, not a frame: a frame of a later write that came first keeps its row and state.
      store.getState().loadSession(session);
    },
    search: (query, before) => api.listSessions({ q: query, limit: SESSIONS_PAGE_SIZE, ...(before === undefined ? {} : { before }) }),
    async loadMore() {
      const cursor = store.getState().sessionsCursor;
      if (cursor === null || loadingMore) return;
      loadingMore = true;
      try {
        const mark = touches.mark();
        const page = await api.listSessions({ limit: SESSIONS_PAGE_SIZE, before: cursor });
        if (store.getState().sessionsCursor === cursor) store.getState().loadMoreSessions(page.sessions, page.next, touches.since(mark));
      } catch (error) {
        emit({ type: "load-failed", error });
      } finally {
        loadingMore = false;
      }
    },
    requestDelete(sessionId) {
      deletes.request(sessionId);
      if (active === sessionId) emit({ type: "navigate", sessionId: null });
    },
    undoDelete(sessionId) {
      if (!deletes.undo(sessionId)) return false;
      emit({ type: "navigate", sessionId });
      return true;
    },
    flushDeletes: () => deletes.flush(),
    retryNow: () => mux?.retryNow(),
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
