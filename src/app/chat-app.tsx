import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError, api as defaultApi, type Api } from "../client/api";
import { createMux, muxUrl, type MuxOptions, type MuxConnection } from "../client/mux";
import { AttentionWatcher } from "../features/attention/attention-watcher";
import { NotifyToggle } from "../features/attention/notify-toggle";
import { NEW_CHAT_DRAFT } from "../features/chat/composer";
import { Conversation } from "../features/chat/conversation";
import { describeFailure } from "../features/chat/failure";
import { isTypingTarget, KeyboardHelp } from "../features/chat/keyboard-help";
import { chatCopy } from "../features/chat/copy";
import { retireDraft } from "../features/question/retired-drafts";
import { Sidebar } from "../features/sessions/sidebar";
import { useCopy } from "../i18n/i18n";
import type { DownFrame } from "../protocol/schemas";
import type { RetiredRequest, RetireReason } from "../store/state";
import { SessionStoreProvider } from "../store/react";
import { pendingRpcIds } from "../store/selectors";
import { createSessionStore, type SessionStore } from "../store/session-store";
import { Button } from "../ui/button";
import { ThemeSwitch } from "../ui/theme-switch";
import { sessionHref, useHashSession } from "./hash-session";
import { createLiveTouches } from "./live-touches";
import { createUndoableDeletes, UNDO_DELETE_MS } from "./undoable-delete";
import { Toast } from "../ui/toast";
import { appCopy } from "./copy";
import { createQuestionEntry, createRetiredEntry, loadQuestionPanel } from "./question-entry";

const DRAWER_ID = "sessions-drawer";
/** Sessions per page of the sidebar's list. */
export const SESSIONS_PAGE_SIZE = 50;
/** The question panel's code loads lazily, this long after start-up, so the first question shows without a wait. */
const PANEL_PRELOAD_DELAY_MS = 1000;

export interface ChatAppProps {
  store?: SessionStore;
  api?: Api;
  connect?: (options: MuxOptions) => MuxConnection;
}

/** Why a frame removed a pending request, when that is worth telling a tab that held drafts for it. */
export function retireReasonOf(frame: DownFrame): RetireReason | null {
  switch (frame.type) {
    case "question/resolved":
      return frame.outcome === "answered" ? "answered-elsewhere" : frame.outcome === "cancelled" ? "dismissed-elsewhere" : "stopped";
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
 * for a notice (true) or deleted, and the kept ones are retired in the store.
 */
export function applyFrameAndForgetDrafts(
  store: SessionStore,
  frame: DownFrame,
  retire: (rpcId: string, reason: RetireReason | null) => boolean = retireDraft,
): void {
  const { pending: before, hostId } = store.getState();
  store.getState().applyFrame(frame);
  // A host that shuts down aborts what it holds before it goes; its successor's hello says why.
  if (frame.type === "hello" && hostId !== null && hostId !== frame.hostId) store.getState().blameHostRestart();
  if (Object.keys(before).length === 0) return;
  const after = pendingRpcIds(store.getState());
  const reason = retireReasonOf(frame);
  const kept: RetiredRequest[] = [];
  for (const entries of Object.values(before)) {
    for (const { request } of entries) {
      if (after.has(request.rpcId)) continue;
      if (retire(request.rpcId, reason) && reason !== null) kept.push({ request, reason });
    }
  }
  if (kept.length > 0) store.getState().retireRequests(kept);
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

/** What went wrong loading from the host; translated when shown, so a locale switch does not reconnect. */
type LoadProblem = null | { kind: "session-missing" } | { kind: "load-failed"; error: unknown } | { kind: "delete-failed"; error: unknown };

/** The chat app: connection → store → sidebar, conversation and composer slot. */
export function ChatApp({ store: givenStore, api = defaultApi, connect = createMux }: ChatAppProps) {
  const t = useCopy(appCopy);
  const tChat = useCopy(chatCopy);
  const [store] = useState(() => givenStore ?? createSessionStore());
  const [drafts] = useState(() => new Map<string, string>());
  const [touches] = useState(createLiveTouches);
  const [activeSessionId, navigate] = useHashSession();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [synced, setSynced] = useState(false);
  const [loadProblem, setLoadProblem] = useState<LoadProblem>(null);
  const activeRef = useRef(activeSessionId);
  const slotEntries = useMemo(
    () => [
      createQuestionEntry(api.respond, {
        stopTurn: async (sessionId) => void (await api.abort(sessionId)),
        moveToComposer: (sessionId, text) => store.getState().prefillComposer(sessionId, text),
      }),
      createRetiredEntry((rpcId) => store.getState().dismissRetired(rpcId)),
    ],
    [api, store],
  );

  useEffect(() => {
    activeRef.current = activeSessionId;
  }, [activeSessionId]);

  useEffect(() => {
    const timer = setTimeout(() => {
      loadQuestionPanel().catch((error: unknown) => console.warn("could not preload the question panel", error));
    }, PANEL_PRELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const loadSession = useCallback(
    async (sessionId: string): Promise<LoadProblem> => {
      try {
        const mark = touches.mark();
        const { session, messages } = await api.getSession(sessionId);
        const live = touches.since(mark);
        store.getState().loadSession(session, live);
        store.getState().loadTranscript(sessionId, messages, live);
        return null;
      } catch (error) {
        if (error instanceof ApiError && error.code === "NOT_FOUND") {
          if (activeRef.current === sessionId) navigate(null);
          return { kind: "session-missing" };
        }
        return { kind: "load-failed", error };
      }
    },
    [api, store, touches, navigate],
  );

  const refresh = useCallback(async (): Promise<LoadProblem> => {
    try {
      const mark = touches.mark();
      const page = await api.listSessions({ limit: SESSIONS_PAGE_SIZE });
      store.getState().loadSessions(page.sessions, touches.since(mark), page.next);
    } catch (error) {
      return { kind: "load-failed", error };
    }
    const open = activeRef.current;
    return open === null ? null : loadSession(open);
  }, [api, store, touches, loadSession]);

  const muxRef = useRef<MuxConnection | null>(null);
  useEffect(() => {
    const mux = connect({
      url: muxUrl(window.location),
      onStatus: (status) => {
        store.getState().setConnection(status);
        if (status === "online") store.getState().setAccess("open");
        if (status === "offline") void checkAccess(api, store);
      },
      onFrame: (frame) => {
        touches.record(frame);
        applyFrameAndForgetDrafts(store, frame);
        if (frame.type === "hello") void refresh().then(setLoadProblem);
        if (frame.type === "synced") setSynced(true);
        if (frame.type === "session/deleted" && frame.sessionId === activeRef.current) navigate(null);
      },
    });
    muxRef.current = mux;
    return () => {
      mux.close();
      if (muxRef.current === mux) muxRef.current = null;
    };
  }, [api, connect, store, touches, refresh, navigate]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || isTypingTarget(event.target)) return;
      event.preventDefault();
      setHelpOpen(true);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  const [hiddenSessions, setHiddenSessions] = useState<ReadonlySet<string>>(() => new Set());
  const [lastDeleted, setLastDeleted] = useState<{ id: string; title: string } | null>(null);
  const [deletes] = useState(() =>
    createUndoableDeletes({
      remove: (sessionId) => api.deleteSession(sessionId),
      onChange: setHiddenSessions,
      onError: (_sessionId, error) => setLoadProblem({ kind: "delete-failed", error }),
    }),
  );

  useEffect(() => {
    const flush = () => deletes.flush();
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, [deletes]);

  const deleteSession = useCallback(
    (sessionId: string) => {
      const session = store.getState().sessions.find((candidate) => candidate.id === sessionId);
      deletes.request(sessionId);
      setLastDeleted({ id: sessionId, title: session?.title.trim() || t("newChatTitle") });
      if (activeRef.current === sessionId) navigate(null);
    },
    [deletes, store, navigate, t],
  );

  const undoDelete = useCallback(() => {
    if (!lastDeleted) return;
    if (deletes.undo(lastDeleted.id)) navigate(lastDeleted.id);
    setLastDeleted(null);
  }, [deletes, lastDeleted, navigate]);

  useEffect(() => {
    if (!lastDeleted) return;
    const timer = setTimeout(() => setLastDeleted(null), UNDO_DELETE_MS);
    return () => clearTimeout(timer);
  }, [lastDeleted]);

  const renameSession = useCallback(
    async (sessionId: string, title: string) => {
      try {
        const session = await api.renameSession(sessionId, title);
        store.getState().applyFrame({ type: "session/upserted", session });
      } catch (error) {
        throw new Error(tChat("renameFailed", { reason: describeFailure(error, tChat) }), { cause: error });
      }
    },
    [api, store, tChat],
  );

  const searchSessions = useCallback(
    async (query: string, before?: string) => {
      try {
        return await api.listSessions({ q: query, limit: SESSIONS_PAGE_SIZE, ...(before === undefined ? {} : { before }) });
      } catch (error) {
        throw new Error(describeFailure(error, tChat), { cause: error });
      }
    },
    [api, tChat],
  );

  const retryConnection = useCallback(() => muxRef.current?.retryNow(), []);

  useEffect(() => {
    if (activeSessionId !== null) void loadSession(activeSessionId).then(setLoadProblem);
  }, [activeSessionId, loadSession]);

  const loadingMore = useRef(false);
  const loadMoreSessions = useCallback(async () => {
    const cursor = store.getState().sessionsCursor;
    if (cursor === null || loadingMore.current) return;
    loadingMore.current = true;
    try {
      const mark = touches.mark();
      const page = await api.listSessions({ limit: SESSIONS_PAGE_SIZE, before: cursor });
      if (store.getState().sessionsCursor === cursor) store.getState().loadMoreSessions(page.sessions, page.next, touches.since(mark));
    } catch (error) {
      setLoadProblem({ kind: "load-failed", error });
    } finally {
      loadingMore.current = false;
    }
  }, [api, store, touches]);

  const onSend = useCallback(
    async (sessionId: string | null, text: string) => {
      let target = sessionId;
      if (target === null) {
        const session = await api.createSession();
        store.getState().applyFrame({ type: "session/upserted", session });
        target = session.id;
        const typedSince = drafts.get(NEW_CHAT_DRAFT);
        drafts.delete(NEW_CHAT_DRAFT);
        if (typedSince !== undefined) drafts.set(target, typedSince);
        navigate(target);
      }
      const message = await api.postMessage(target, text);
      store.getState().applyFrame({ type: "message/upserted", message });
    },
    [api, store, navigate, drafts],
  );

  const onStop = useCallback(
    async (sessionId: string) => {
      await api.abort(sessionId);
    },
    [api],
  );

  const select = useCallback(
    (sessionId: string) => {
      navigate(sessionId);
      setDrawerOpen(false);
    },
    [navigate],
  );

  const newChat = useCallback(() => {
    navigate(null);
    setDrawerOpen(false);
  }, [navigate]);

  return (
    <SessionStoreProvider store={store}>
      <div
        className="shell"
        data-drawer={drawerOpen ? "open" : "closed"}
        onKeyDown={(event) => {
          if (event.key !== "Escape" || !drawerOpen) return;
          event.preventDefault();
          setDrawerOpen(false);
        }}
      >
        <Sidebar
          id={DRAWER_ID}
          activeSessionId={activeSessionId}
          sessionHref={sessionHref}
          onSelect={select}
          onNewChat={newChat}
          onLoadMore={() => void loadMoreSessions()}
          onSearch={searchSessions}
          onRename={renameSession}
          onDelete={deleteSession}
          hiddenSessionIds={hiddenSessions}
          footer={
            <>
              <ThemeSwitch />
              <NotifyToggle />
              <Button variant="ghost" className="shell__shortcuts" aria-keyshortcuts="?" onClick={() => setHelpOpen(true)}>
                {tChat("shortcutsButton")}
              </Button>
            </>
          }
        />
        <AttentionWatcher onOpenSession={select} />
        <KeyboardHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
        {lastDeleted && (
          <Toast>
            <span dir="auto">{t("chatDeleted", { title: lastDeleted.title })}</span>
            <Button variant="secondary" onClick={undoDelete}>
              {t("undo")}
            </Button>
          </Toast>
        )}
        {drawerOpen && <div className="shell__scrim" aria-hidden="true" onClick={() => setDrawerOpen(false)} />}
        <main className="shell__main">
          {loadProblem && (
            <p role="alert" className="shell__error">
              {loadProblem.kind === "session-missing"
                ? t("sessionMissing")
                : loadProblem.kind === "delete-failed"
                  ? t("deleteFailed", { reason: describeFailure(loadProblem.error, tChat) })
                  : t("loadFailed", { reason: describeFailure(loadProblem.error, tChat) })}
            </p>
          )}
          <Conversation
            sessionId={activeSessionId}
            slotEntries={slotEntries}
            drafts={drafts}
            onSend={onSend}
            onStop={onStop}
            fallbackTitle={t("newChatTitle")}
            onRetryConnection={retryConnection}
            focusReady={synced}
            onRename={renameSession}
            headerStart={
              <Button className="shell__drawer-toggle" variant="ghost" aria-expanded={drawerOpen} aria-controls={DRAWER_ID} onClick={() => setDrawerOpen((open) => !open)}>
                {t("sessionsToggle")}
              </Button>
            }
          />
        </main>
      </div>
    </SessionStoreProvider>
  );
}
