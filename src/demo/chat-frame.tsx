import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import { appCopy } from "../app/copy";
import { sessionHref } from "../ui/hash-session";
import { DrawerToggle } from "../app/drawer-toggle";
import { createSlotEntries } from "../app/question-entry";
import { useDrawer, useHelpShortcut } from "../app/shell-hooks";
import { useUndoDelete } from "../app/undo-delete";
import { useHostFacts } from "../app/use-host-facts";
import { NotifyToggle } from "../features/attention/notify-toggle";
import { acpCommands, selectAcpSession } from "../features/chat/acp-session";
import { Conversation } from "../features/chat/conversation";
import { chatCopy } from "../features/chat/copy";
import { KeyboardHelp } from "../features/chat/keyboard-help";
import { Sidebar } from "../features/sessions/sidebar";
import { useCopy } from "../i18n/i18n";
import { SessionStoreProvider } from "../store/react";
import { Button } from "../ui/button";
import { createChatRun, openRowMenuWhenShown } from "./chat-run";
import type { FrameSettings, HostAction } from "./frame-messages";
import { packageManager } from "./stories/samples";
import type { ChatStory } from "./stories";

const DRAWER_ID = "demo-sessions-drawer";
const NO_HIDDEN: ReadonlySet<string> = new Set();
/** An ACP chat's mode select in the header, loaded with the first such chat, as the app loads it. */
const AcpModeSelect = lazy(() => import("../features/chat/acp-mode-select"));

interface ChatStoryRunProps {
  story: ChatStory;
  settingsRef: { current: FrameSettings };
  /** Where the page's host controls reach the run's fake host. */
  hostListeners: Set<(action: HostAction) => void>;
}

/**
 * A chat story: the app's sidebar, conversation and composer slot in the app's shell layout, over a fake host that holds
 * the story's scene. As in `ChatApp`, but the open chat is kept here, since the frame's address names the story, and the
 * page's Theme control stands in for the sidebar's theme switch.
 */
export function ChatStoryRun({ story, settingsRef, hostListeners }: ChatStoryRunProps) {
  const { scene } = story;
  const t = useCopy(appCopy);
  const tChat = useCopy(chatCopy);
  const [run] = useState(() => createChatRun(story, settingsRef, new Date()));
  const [openId, setOpenId] = useState(scene.open);
  const [hidden, setHidden] = useState(NO_HIDDEN);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const shellRef = useRef<HTMLDivElement>(null);
  const drawer = useDrawer(toggleRef, closeRef);
  const [helpOpen, setHelpOpen] = useHelpShortcut();
  const { requestDelete, toast } = useUndoDelete(run.engine, run.store);
  const facts = useHostFacts(run.host.api.health);
  const acpSession = useStore(run.store, selectAcpSession(openId ?? ""));
  const slotEntries = useMemo(
    () =>
      createSlotEntries({
        respond: run.engine.respond,
        stopTurn: run.engine.stop,
        moveToComposer: (sessionId, text) => run.store.getState().prefillComposer(sessionId, text),
        dismissRetired: (rpcId) => run.store.getState().dismissRetired(rpcId),
      }),
    [run],
  );

  useEffect(
    () =>
      run.engine.on((event) => {
        if (event.type === "navigate") setOpenId(event.sessionId);
        if (event.type === "hidden-sessions") setHidden(event.sessionIds);
      }),
    [run],
  );
  useEffect(() => {
    run.engine.start();
    return () => run.engine.close();
  }, [run]);
  useEffect(() => run.engine.open(openId), [run, openId]);
  useEffect(() => () => run.host.dispose(), [run]);

  const { setOpen: setDrawerOpen } = drawer;
  useEffect(() => {
    if (scene.drawer === "open") setDrawerOpen(true);
  }, [scene.drawer, setDrawerOpen]);

  useEffect(() => {
    const shell = shellRef.current;
    if (scene.rowMenu === undefined || !shell) return;
    return openRowMenuWhenShown(shell, sessionHref(scene.rowMenu));
  }, [scene.rowMenu]);

  useEffect(() => {
    let asked = 0;
    const listener = (action: HostAction) => {
      switch (action) {
        case "ask": {
          asked += 1;
          const target = openId ?? scene.chats[0]?.id;
          if (target !== undefined) run.host.ask({ rpcId: `${story.id}-asked-${asked}`, sessionId: target, questions: [packageManager], createdAt: new Date().toISOString() });
          break;
        }
        case "answer-elsewhere": {
          const first = Object.values(run.store.getState().pending).flat()[0];
          if (first) run.host.resolveElsewhere(first.request.rpcId, "answered");
          break;
        }
        case "restart":
          run.host.restart();
          break;
        default:
          action satisfies never;
      }
    };
    hostListeners.add(listener);
    return () => {
      hostListeners.delete(listener);
    };
  }, [hostListeners, run, story.id, scene.chats, openId]);

  const select = (sessionId: string | null) => {
    setOpenId(sessionId);
    setDrawerOpen(false);
  };

  return (
    <SessionStoreProvider store={run.store}>
      <div className="shell" data-drawer={drawer.open ? "open" : "closed"} onKeyDown={drawer.onKeyDown} ref={shellRef}>
        <Sidebar
          id={DRAWER_ID}
          activeSessionId={openId}
          sessionHref={sessionHref}
          onSelect={select}
          onNewChat={() => select(null)}
          {...(scene.agents ? { agents: scene.agents } : {})}
          onLoadMore={() => void run.engine.loadMore()}
          onSearch={run.engine.search}
          onRename={run.engine.rename}
          onDelete={requestDelete}
          hiddenSessionIds={hidden}
          onClose={() => setDrawerOpen(false)}
          closeRef={closeRef}
          footer={
            <>
              <NotifyToggle />
              <Button variant="ghost" className="shell__shortcuts" aria-keyshortcuts="?" onClick={() => setHelpOpen(true)}>
                {tChat("shortcutsButton")}
              </Button>
            </>
          }
        />
        <KeyboardHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
        {toast}
        {drawer.open && <div className="shell__scrim" aria-hidden="true" onClick={() => setDrawerOpen(false)} />}
        <main className="shell__main">
          <Conversation
            sessionId={openId}
            slotEntries={slotEntries}
            drafts={run.drafts}
            onSend={run.engine.send}
            onStop={run.engine.stop}
            fallbackTitle={t("newChatTitle")}
            onRetryConnection={run.engine.retryNow}
            onRename={run.engine.rename}
            facts={facts}
            commands={acpCommands(acpSession)}
            headerEnd={
              openId !== null &&
              acpSession && (
                <Suspense fallback={null}>
                  <AcpModeSelect key={openId} sessionId={openId} data={acpSession} />
                </Suspense>
              )
            }
            headerStart={<DrawerToggle ref={toggleRef} store={run.store} openId={openId} open={drawer.open} controls={DRAWER_ID} onToggle={() => setDrawerOpen(!drawer.open)} />}
          />
        </main>
      </div>
    </SessionStoreProvider>
  );
}
