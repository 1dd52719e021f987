import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { useStore } from "zustand";
import { createAgentsApi, type AgentsApi } from "../client/agents-api";
import { api as defaultApi, type Api } from "../client/api";
import { createMux, type MuxOptions, type MuxConnection } from "../client/mux";
import { AttentionWatcher } from "../features/attention/attention-watcher";
import { DeviceSettingsSlot } from "../features/push/device-slot";
import { OFFER_SLOT_ID } from "../features/push/settings-ready";
import { Conversation } from "../features/chat/conversation";
import { acpCommands, selectAcpSession } from "../features/chat/acp-session";
import { chatCopy } from "../features/chat/copy";
import { focusMessageBox } from "../features/chat/message-box";
import { McpNotice } from "../features/mcp/mcp-notice";
import { Sidebar } from "../features/sessions/sidebar";
import { useCopy } from "../i18n/i18n";
import { SessionStoreProvider } from "../store/react";
import { createSessionStore, type SessionStore } from "../store/session-store";
import { Button } from "../ui/button";
import { ErrorBoundary } from "../ui/error-boundary";
import { ThemeSwitch } from "../ui/theme-switch";
import { sessionHref, useHashSession } from "../ui/hash-session";
import { appCopy } from "./copy";
import { DrawerToggle } from "./drawer-toggle";
import { LoadProblemAlert } from "./load-problem";
import { createSlotEntries } from "./question-entry";
import { GrantsEntry } from "../features/approval/grants-entry";
import { useDrawer, useHelpShortcut, usePanelPreload } from "./shell-hooks";
import { useUndoDelete } from "./undo-delete";
import { useSessionEngine } from "./use-session-engine";
import { useHostFacts } from "./use-host-facts";
import { useAgents } from "./use-agents";
import { lazyModule } from "../ui/lazy-module";

const DRAWER_ID = "sessions-drawer";

/** The skip link's target: whatever holds the composer's place (a question panel, an approval card), else the message box. */
function skipToMessage(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  focusMessageBox(document.querySelector(".conversation__footer"), true);
}

export interface ChatAppProps {
  store?: SessionStore;
  api?: Api;
  connect?: (options: MuxOptions) => MuxConnection;
  /** The host's ACP agents; New chat offers them when there is at least one. */
  agentsApi?: AgentsApi;
}

/** The host's ACP agents, on the page's own origin. */
const defaultAgentsApi = createAgentsApi();
/** An ACP chat's mode select in the header, loaded with the first such chat. */
const AcpModeSelect = lazy(() => import("../features/chat/acp-mode-select"));
/** The sidebar's "Notify me", in a chunk of its own: it loads as the first screen shows, as the device's push settings do. */
const NotifyToggle = lazyModule(() => import("../features/attention/notify-toggle")).component((module) => module.NotifyToggle);
const KeyboardHelp = lazyModule(() => import("../features/chat/keyboard-help")).component((module) => module.KeyboardHelp);

/**
 * The notices of answers not sent kept across reloads (`retired-storage.ts`), in a chunk of their own fetched as the app
 * starts, beside the checks their restore waits for. Returns the unsubscribe.
 */
function keepRetiredLazily(store: SessionStore): () => void {
  let stop: (() => void) | null = null;
  let gone = false;
  import("./retired-storage").then(
    ({ keepRetiredAcrossReloads }) => {
      if (!gone) stop = keepRetiredAcrossReloads(store);
    },
    (error: unknown) => console.warn("the notices of answers not sent cannot be kept across reloads", error),
  );
  return () => {
    gone = true;
    stop?.();
  };
}

/** The chat app: the session engine → store → sidebar, conversation and composer slot. */
export function ChatApp({ store: givenStore, api = defaultApi, connect = createMux, agentsApi = defaultAgentsApi }: ChatAppProps) {
  const t = useCopy(appCopy);
  const tChat = useCopy(chatCopy);
  const [store] = useState(() => givenStore ?? createSessionStore());
  const [drafts] = useState(() => new Map<string, string>());
  const [activeSessionId, navigate] = useHashSession();
  const { engine, synced, loadProblem, hiddenSessions, rename, search } = useSessionEngine({ store, api, connect, drafts, activeSessionId, navigate });
  const drawerToggleRef = useRef<HTMLButtonElement>(null);
  const drawerCloseRef = useRef<HTMLButtonElement>(null);
  const drawer = useDrawer(drawerToggleRef, drawerCloseRef);
  // A chat opened from outside the list (a notification's tap, the address) closes the phone's drawer, as a pick in it does.
  const [drawerChat, setDrawerChat] = useState(activeSessionId);
  if (drawerChat !== activeSessionId) {
    setDrawerChat(activeSessionId);
    drawer.setOpen(false);
  }
  const [helpOpen, setHelpOpen] = useHelpShortcut();
  // The shortcuts' dialog loads the first time it is asked for, then stays mounted (closing it gives focus back).
  const [helpAsked, setHelpAsked] = useState(false);
  if (helpOpen && !helpAsked) setHelpAsked(true);
  const { requestDelete, toast } = useUndoDelete(engine, store);
  useEffect(() => keepRetiredLazily(store), [store]);
  usePanelPreload();
  const facts = useHostFacts(api.health);
  const { agents, known: agentsKnown, refresh: refreshAgents } = useAgents(agentsApi);
  const acpSession = useStore(store, selectAcpSession(activeSessionId ?? ""));
  const slotEntries = useMemo(
    () =>
      createSlotEntries({
        respond: engine.respond,
        stopTurn: engine.stop,
        moveToComposer: (sessionId, text) => store.getState().prefillComposer(sessionId, text),
        dismissRetired: (rpcId) => store.getState().dismissRetired(rpcId),
      }),
    [engine, store],
  );

  const select = (sessionId: string | null) => {
    navigate(sessionId);
    drawer.setOpen(false);
  };
  const { setOpen: setDrawerOpen } = drawer;
  const newAgentChat = useCallback(
    async (agent: string, cwd: string) => {
      const session = await agentsApi.createChat(agent, cwd);
      store.getState().applyFrame({ type: "session/upserted", session });
      navigate(session.id);
      setDrawerOpen(false);
    },
    [agentsApi, store, navigate, setDrawerOpen],
  );

  return (
    <SessionStoreProvider store={store}>
      <div className="shell" data-drawer={drawer.open ? "open" : "closed"} onKeyDown={drawer.onKeyDown} onCompositionStart={drawer.onCompositionStart} onCompositionEnd={drawer.onCompositionEnd}>
        <a href="#message-box" className="shell__skip" onClick={skipToMessage}>
          {t("skipToMessage")}
        </a>
        <Sidebar
          id={DRAWER_ID}
          activeSessionId={activeSessionId}
          sessionHref={sessionHref}
          onSelect={select}
          onNewChat={() => select(null)}
          agents={agents}
          agentsKnown={agentsKnown}
          onNewAgentChat={newAgentChat}
          onRefreshAgents={refreshAgents}
          onLoadMore={() => void engine.loadMore()}
          onSearch={search}
          onRename={rename}
          onDelete={requestDelete}
          listFailed={loadProblem?.type === "load-failed"}
          hiddenSessionIds={hiddenSessions}
          onClose={() => drawer.setOpen(false)}
          closeRef={drawerCloseRef}
          footer={
            <>
              <ThemeSwitch />
              <ErrorBoundary fallback={() => null}>
                <Suspense fallback={null}>
                  <NotifyToggle />
                </Suspense>
              </ErrorBoundary>
              <DeviceSettingsSlot />
              <Button variant="ghost" className="shell__shortcuts" aria-keyshortcuts="?" onClick={() => setHelpOpen(true)}>
                {tChat("shortcutsButton")}
              </Button>
            </>
          }
        />
        <AttentionWatcher onOpenSession={select} />
        {helpAsked && (
          <ErrorBoundary fallback={() => null}>
            <Suspense fallback={null}>
              <KeyboardHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
            </Suspense>
          </ErrorBoundary>
        )}
        {toast}
        {drawer.open && <div className="shell__scrim" aria-hidden="true" onClick={() => drawer.setOpen(false)} />}
        <main className="shell__main">
          <LoadProblemAlert problem={loadProblem} />
          <McpNotice health={api.health} />
          <div id={OFFER_SLOT_ID} />
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
            facts={facts}
            commands={acpCommands(acpSession)}
            agentTitles={agents?.agents}
            headerEnd={
              activeSessionId === null ? null : (
                <>
                  {acpSession && (
                    <Suspense fallback={null}>
                      <AcpModeSelect key={activeSessionId} sessionId={activeSessionId} data={acpSession} />
                    </Suspense>
                  )}
                  <GrantsEntry sessionId={activeSessionId} />
                </>
              )
            }
            headerStart={<DrawerToggle ref={drawerToggleRef} store={store} openId={activeSessionId} open={drawer.open} controls={DRAWER_ID} onToggle={() => drawer.setOpen(!drawer.open)} />}
          />
        </main>
      </div>
    </SessionStoreProvider>
  );
}
