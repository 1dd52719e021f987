import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { shownTitle } from "../../protocol/chat-title";
import { useCopy } from "../../i18n/i18n";
import { useSessionStore, useSessionStoreApi } from "../../store/react";
import { selectComposerPrefill, selectSession } from "../../store/selectors";
import { Button } from "../../ui/button";
import { ErrorBoundary } from "../../ui/error-boundary";
import { LazyInlineEdit as InlineEdit } from "../../ui/lazy-inline-edit";
import { TOUCH_QUERY, useMediaQuery } from "../../ui/use-media-query";
import { Composer, NEW_CHAT_DRAFT } from "./composer";
import { ComposerSlot } from "./composer-slot";
import { ConnectionNotice } from "./connection-notice";
import { FailedPart } from "./failed-part";
import { DEMO_MODEL, type HostFacts } from "./host-facts";
import { LazyFirstScreen } from "./lazy-first-screen";
import { selectAcpSession } from "./acp-session";
import { mergeCommands, type ComposerCommand } from "./commands";
import { chatCopy } from "./copy";
import { createSlotChoiceSelector, type SlotEntry } from "./slot-entries";
import { TurnBar } from "./turn-bar";
import { handFocusToMessageBox as handFocusOn } from "./message-box";
import { Transcript } from "./transcript";
import "./chat.css";

/** The longest title the host accepts. */
const TITLE_MAX_CHARS = 200;


export interface ConversationProps {
  /** The open session, or null for a new chat that starts with the first message. */
  sessionId: string | null;
  slotEntries: readonly SlotEntry[];
  /** Composer drafts per session id, kept by the caller across session switches. */
  drafts: Map<string, string>;
  onSend: (sessionId: string | null, text: string) => Promise<void>;
  onStop: (sessionId: string) => Promise<void>;
  /** Rendered first in the header (the app's drawer toggle). */
  headerStart?: ReactNode;
  /** Rendered last in the header (the app's list of tools allowed for this chat). */
  headerEnd?: ReactNode;
  /** The title shown for a new chat or an untitled session. */
  fallbackTitle: string;
  /** Reconnects at once (the offline banner's `Retry now`). */
  onRetryConnection?: () => void;
  /** Renames the session; rejects with an error whose message says, translated, what went wrong. */
  onRename?: (sessionId: string, title: string) => Promise<void>;
  /** What the host said about its model and MCP servers, for the first screen and the `/` menu; null until known. */
  facts?: HostFacts | null;
  /** The host's ACP agents by config name with their titles, for a chat whose agent session has not said its title yet. */
  agentTitles?: readonly { name: string; title: string }[] | undefined;
  /** Commands besides the demo model's for the `/` menu (an agent's own, from its session). */
  commands?: readonly ComposerCommand[];
  /** False until the host's first replay of pending questions is in: the composer takes focus only then, so it cannot hold a panel back. */
  focusReady?: boolean;
}

const NO_COMMANDS: readonly ComposerCommand[] = [];

/** One conversation: header, transcript, turn bar with Stop, and the composer slot. */
export function Conversation({ sessionId, slotEntries, drafts, onSend, onStop, headerStart, headerEnd, fallbackTitle, onRetryConnection, focusReady = true, onRename, facts = null, commands = NO_COMMANDS, agentTitles }: ConversationProps) {
  const t = useCopy(chatCopy);
  const session = useSessionStore(selectSession(sessionId ?? ""));
  // An ACP agent is named by its title ("Qwen Code"): its session row's once it says it, else the host's list's, else its config name.
  const agentTitle = useSessionStore(selectAcpSession(sessionId ?? ""))?.title;
  const listedTitle = agentTitles?.find((entry) => entry.name === session?.agent?.name)?.title;
  const agentName = session?.agent ? (agentTitle ?? (session.agent.kind === "acp-agent" ? listedTitle : undefined) ?? session.agent.name) : undefined;
  const turn = session?.state ?? "idle";
  const turnActive = turn !== "idle";
  const title = shownTitle(session?.title ?? "", fallbackTitle);
  const [sent, setSent] = useState(0);
  const [renaming, setRenaming] = useState(false);
  const [renamingFor, setRenamingFor] = useState(sessionId);
  if (renamingFor !== sessionId) {
    setRenamingFor(sessionId);
    setRenaming(false);
  }
  const electionSelector = useMemo(() => createSlotChoiceSelector(slotEntries, sessionId), [slotEntries, sessionId]);
  const slotTakenOver = useSessionStore(electionSelector) !== null;
  const composerInput = useRef<HTMLTextAreaElement>(null);
  const footer = useRef<HTMLDivElement>(null);
  // A control that held keyboard focus and went away (Stop, Retry, Retry now) hands it to the message box, else to what
  // holds its place (from a panel that then goes, the slot gives focus to the box), else to the footer itself.
  const handFocusToMessageBox = useCallback(() => handFocusOn(footer.current), []);
  const store = useSessionStoreApi();
  const prefill = useSessionStore(selectComposerPrefill);
  const composerPrefill = prefill !== null && prefill.sessionId === sessionId ? prefill : null;
  const takePrefill = useMemo(() => (composerPrefill === null ? undefined : () => store.getState().clearComposerPrefill(composerPrefill)), [store, composerPrefill]);
  const takenOverRef = useRef(slotTakenOver);
  const touch = useMediaQuery(TOUCH_QUERY);
  const [starterFill, setStarterFill] = useState<{ text: string } | null>(null);
  const takeStarter = useCallback(() => setStarterFill(null), []);
  // The demo model's commands only where it answers: not in a chat an outside agent runs.
  const demoModel = facts?.model === DEMO_MODEL && session?.agent === undefined;
  const menuCommands = useMemo(
    () =>
      mergeCommands(
        demoModel
          ? [
              { name: "/ask", usage: "<json>", description: t("commandAsk") },
              { name: "/plan", usage: "<markdown>", description: t("commandPlan") },
              ...(facts.servers.length > 0 ? [{ name: "/tool", usage: "<mcp__server__tool> <json>", description: t("commandTool") }] : []),
              { name: "/echo", usage: "<text>", description: t("commandEcho") },
            ]
          : [],
        commands,
      ),
    [demoModel, facts, commands, t],
  );

  useEffect(() => {
    takenOverRef.current = slotTakenOver;
  }, [slotTakenOver]);

  // On load, New chat and a switch of chats the composer takes focus, unless a panel owns the slot; not on touch screens, where focus opens the keyboard.
  useEffect(() => {
    if (!focusReady || takenOverRef.current || touch) return;
    composerInput.current?.focus();
  }, [sessionId, focusReady, touch]);
  const sendHere = async (text: string) => {
    setSent((count) => count + 1);
    await onSend(sessionId, text);
  };
  const firstScreen = (
    <LazyFirstScreen
      agentName={agentName}
      acp={session?.agent?.kind === "acp-agent"}
      facts={facts}
      onStart={sendHere}
      onFill={(text) => {
        setStarterFill({ text });
        composerInput.current?.focus();
      }}
    />
  );

  return (
    <div className="conversation">
      <header className="conversation__header">
        {headerStart}
        {renaming && session && onRename ? (
          <InlineEdit
            className="conversation__rename"
            initial={session.title}
            label={t("renameTitle")}
            maxLength={TITLE_MAX_CHARS}
            describe={(error) => (error instanceof Error ? error.message : String(error))}
            onSave={(next) => onRename(session.id, next)}
            onDone={() => setRenaming(false)}
          />
        ) : (
          <h1 className="conversation__title" dir="auto">
            {title}
          </h1>
        )}
        {session && onRename && !renaming && (
          <Button variant="ghost" className="conversation__rename-button" onClick={() => setRenaming(true)}>
            {t("renameTitle")}
          </Button>
        )}
        {headerEnd}
      </header>
      <ConnectionNotice onRetryNow={onRetryConnection} onFocusLost={handFocusToMessageBox} />
      {sessionId !== null ? (
        <ErrorBoundary
          key={sessionId}
          fallback={(error, retry) => (
            <section className="transcript" aria-label={t("transcriptLabel")}>
              <FailedPart summary={t("transcriptFailed")} error={error} retry={retry} />
            </section>
          )}
        >
          <Transcript sessionId={sessionId} followSignal={sent} emptyScreen={firstScreen} />
        </ErrorBoundary>
      ) : (
        <section className="transcript" aria-label={t("transcriptLabel")}>
          {firstScreen}
        </section>
      )}
      <div className="conversation__footer" id="message-box" tabIndex={-1} ref={footer}>
        {sessionId !== null && <TurnBar key={sessionId} sessionId={sessionId} turn={turn} agentName={agentName} slotTakenOver={slotTakenOver} onStop={onStop} onRetry={sendHere} onFocusLost={handFocusToMessageBox} />}
        <ComposerSlot
          entries={slotEntries}
          sessionId={sessionId}
          drafts={drafts}
          composer={
            session?.agent?.kind === "mcp-client" ? (
              // Focusable from script only: where focus lands once a panel answered here goes.
              <p className="agent-notice" role="note" dir="auto" tabIndex={-1}>
                {t("agentNotice", { name: session.agent.name })}
              </p>
            ) : (
              <Composer
                draftKey={sessionId ?? NEW_CHAT_DRAFT}
                drafts={drafts}
                blockedReason={turnActive ? (agentName === undefined ? t("sendBlockedByTurn") : t("sendBlockedByAgent", { name: agentName })) : null}
                inputRef={composerInput}
                onSend={sendHere}
                prefill={composerPrefill ?? starterFill}
                onPrefillTaken={composerPrefill === null ? takeStarter : takePrefill}
                commands={menuCommands}
                {...(agentName === undefined ? {} : { recipient: agentName })}
              />
            )
          }
        />
      </div>
    </div>
  );
}
