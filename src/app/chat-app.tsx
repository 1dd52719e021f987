import { useCallback, useEffect, useMemo, useState } from "react";
import { api as defaultApi, type Api } from "../client/api";
import { createMux, muxUrl, type MuxOptions, type MuxConnection } from "../client/mux";
import { createSessionEngine } from "../client/session-engine";
import { AttentionWatcher } from "../features/attention/attention-watcher";
import { NotifyToggle } from "../features/attention/notify-toggle";
import { NEW_CHAT_DRAFT } from "../features/chat/composer";
import { Conversation } from "../features/chat/conversation";
import { describeFailure } from "../features/chat/failure";
import { KeyboardHelp } from "../features/chat/keyboard-help";
import { chatCopy } from "../features/chat/copy";
import { retireDraft } from "../features/question/retired-drafts";
import { Sidebar } from "../features/sessions/sidebar";
import { useCopy } from "../i18n/i18n";
import { SessionStoreProvider } from "../store/react";
import { createSessionStore, type SessionStore } from "../store/session-store";
import { Button } from "../ui/button";
import { ThemeSwitch } from "../ui/theme-switch";
import { sessionHref, useHashSession } from "./hash-session";
import { appCopy } from "./copy";
import { LoadProblemAlert, type LoadProblem } from "./load-problem";
import { createQuestionEntry, createRetiredEntry } from "./question-entry";
import { createApprovalEntry } from "../features/approval/approval-entry";
import { defineSlotEntry } from "../features/chat/slot-entries";
import { useDrawer, useHelpShortcut, usePanelPreload } from "./shell-hooks";
import { useUndoDelete } from "./undo-delete";

const DRAWER_ID = "sessions-drawer";
const NONE_HIDDEN: ReadonlySet<string> = new Set();

export interface ChatAppProps {
  store?: SessionStore;
  api?: Api;
  connect?: (options: MuxOptions) => MuxConnection;
}

/** The chat app: the session engine → store → sidebar, conversation and composer slot. */
export function ChatApp({ store: givenStore, api = defaultApi, connect = createMux }: ChatAppProps) {
  const t = useCopy(appCopy);
  const tChat = useCopy(chatCopy);
  const [store] = useState(() => givenStore ?? createSessionStore());
  const [drafts] = useState(() => new Map<string, string>());
  const [engine] = useState(() => createSessionEngine({ store, api, connect, url: muxUrl(window.location), drafts, newChatDraftKey: NEW_CHAT_DRAFT, retireDraft }));
  const [activeSessionId, navigate] = useHashSession();
  const [synced, setSynced] = useState(false);
  const [loadProblem, setLoadProblem] = useState<LoadProblem>(null);
  const [hiddenSessions, setHiddenSessions] = useState(NONE_HIDDEN);
  const drawer = useDrawer();
  const [helpOpen, setHelpOpen] = useHelpShortcut();
  const { requestDelete, toast } = useUndoDelete(engine, store);
  usePanelPreload();
  const slotEntries = useMemo(
    () => [
      createQuestionEntry(engine.respond, { stopTurn: engine.stop, moveToComposer: (sessionId, text) => store.getState().prefillComposer(sessionId, text) }),
      createRetiredEntry((rpcId) => store.getState().dismissRetired(rpcId)),
      defineSlotEntry(createApprovalEntry(engine.respond)),
    ],
    [engine, store],
  );

  useEffect(
    () =>
      engine.on((event) => {
        switch (event.type) {
          case "navigate":
            return navigate(event.sessionId);
          case "loaded":
            return setLoadProblem(null);
          case "session-missing":
          case "load-failed":
          case "delete-failed":
            return setLoadProblem(event);
          case "synced":
            return setSynced(true);
          case "hidden-sessions":
            return setHiddenSessions(event.sessionIds);
          case "requests-left":
            return;
          default:
            event satisfies never;
        }
      }),
    [engine, navigate],
  );
  useEffect(() => {
    engine.start();
    return () => engine.close();
  }, [engine]);
  useEffect(() => engine.open(activeSessionId), [engine, activeSessionId]);

  const rename = useCallback(
    (sessionId: string, title: string) =>
      engine.rename(sessionId, title).catch((error: unknown) => {
        throw new Error(tChat("renameFailed", { reason: describeFailure(error, tChat) }), { cause: error });
      }),
    [engine, tChat],
  );
  const search = useCallback(
    (query: string, before?: string) =>
      engine.search(query, before).catch((error: unknown) => {
        throw new Error(describeFailure(error, tChat), { cause: error });
      }),
    [engine, tChat],
  );
  const select = (sessionId: string | null) => {
    navigate(sessionId);
    drawer.setOpen(false);
  };

  return (
    <SessionStoreProvider store={store}>
      <div className="shell" data-drawer={drawer.open ? "open" : "closed"} onKeyDown={drawer.onKeyDown}>
        <Sidebar
          id={DRAWER_ID}
          activeSessionId={activeSessionId}
          sessionHref={sessionHref}
          onSelect={select}
          onNewChat={() => select(null)}
          onLoadMore={() => void engine.loadMore()}
          onSearch={search}
          onRename={rename}
          onDelete={requestDelete}
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
        {toast}
        {drawer.open && <div className="shell__scrim" aria-hidden="true" onClick={() => drawer.setOpen(false)} />}
        <main className="shell__main">
          <LoadProblemAlert problem={loadProblem} />
          <Conversation
            sessionId={activeSessionId}
            slotEntries={slotEntries}
            drafts={drafts}
            onSend={engine.send}
            onStop={engine.stop}
            fallbackTitle={t("newChatTitle")}
            onRetryConnection={engine.retryNow}
            focusReady={synced}
            onRename={rename}
            headerStart={
              <Button className="shell__drawer-toggle" variant="ghost" aria-expanded={drawer.open} aria-controls={DRAWER_ID} onClick={() => drawer.setOpen(!drawer.open)}>
                {t("sessionsToggle")}
              </Button>
            }
          />
        </main>
      </div>
    </SessionStoreProvider>
  );
}
