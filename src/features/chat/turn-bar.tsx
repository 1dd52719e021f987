import { useEffect, useMemo, useRef, useState } from "react";
import { useCopy } from "../../i18n/i18n";
import { own } from "../../store/own";
import { useSessionStore, useSessionStoreApi } from "../../store/react";
import type { SessionData } from "../../store/state";
import type { SessionState } from "../../protocol/schemas";
import { Button } from "../../ui/button";
import { useFocusHandoff } from "../../ui/focus-handoff";
import { watchPageIme, type ImeGuard } from "../../ui/ime";
import { describeFailure } from "./failure";
import { lastTurn, type TurnEnding } from "./last-turn";
import { chatCopy } from "./copy";

export interface TurnBarProps {
  sessionId: string;
  turn: SessionState;
  /** The outside agent that asks in this chat, by its name; absent for Parley's assistant. */
  agentName?: string | undefined;
  /** Whether a takeover (the question panel) owns the composer slot: Escape is then the panel's. */
  slotTakenOver: boolean;
  onStop: (sessionId: string) => Promise<void>;
  /** Sends the text again as a new message (Retry). */
  onRetry: (text: string) => Promise<void>;
  /** Where keyboard focus goes when `Stop` or `Retry` held it and went away with the turn's change. */
  onFocusLost?: () => void;
}

/**
 * Where typing goes, but the message box: an Escape there is the field's. A selector rather than typing-activity's
 * `isTextField`, which would bring the typing watcher into the first screen's script.
 */
const OTHER_TEXT_FIELDS = "textarea:not(.composer__input),[contenteditable=true],input:not([type=checkbox],[type=radio],[type=range],[type=button],[type=submit])";

/**
 * Whether a key press belongs to something else: an IME (`imeGuard` watches the whole page), a handler that took it, an
 * open dialog, or a text field other than the message box (the chat search, a rename), even where it does nothing.
 */
function isTakenKey(event: KeyboardEvent, imeGuard: ImeGuard): boolean {
  const inOtherField = event.target instanceof Element && event.target.matches(OTHER_TEXT_FIELDS);
  return event.defaultPrevented || inOtherField || imeGuard.isImeEscape(event) || document.querySelector("dialog[open]") !== null;
}

const RETRY_ENDINGS: ReadonlySet<TurnEnding> = new Set(["failed", "interrupted", "stopped-at-tool"]);

/**
 * Under the transcript: while a turn runs, what it is doing and `Stop` (also Escape, unless a panel
 * owns the slot); once a turn failed, was cut off or was stopped, `Retry` sends the last message again.
 */
export function TurnBar({ sessionId, turn, agentName, slotTakenOver, onStop, onRetry, onFocusLost }: TurnBarProps) {
  const t = useCopy(chatCopy);
  const store = useSessionStoreApi();
  const selectEnding = useMemo(
    () => (state: SessionData) => {
      const last = lastTurn(own(state.transcripts, sessionId) ?? []);
      return last ? `${last.ending}\u0000${last.userMessageId}` : null;
    },
    [sessionId],
  );
  const ended = useSessionStore(selectEnding);
  // A server's form asked during the turn: that server waits for the answer, not the chat's agent.
  const server = useSessionStore((state) => own(state.pending, sessionId)?.find((entry) => entry.request.origin?.kind === "mcp-server")?.request.origin?.name);
  const [stopping, setStopping] = useState(false);
  const [stoppedTurn, setStoppedTurn] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stopRef = useRef<HTMLButtonElement>(null);
  // Stop and Retry say they are busy with aria-disabled, not disabled, which would drop keyboard focus to <body> at once;
  // their keys keep React from turning one into the other in place, which would leave focus on Retry for a second Enter.
  const stopButton = useFocusHandoff(onFocusLost, stopRef);
  const retryButton = useFocusHandoff(onFocusLost);
  const running = turn !== "idle";

  useEffect(() => {
    if (!running || slotTakenOver) return;
    // The composer's IME too: the Escape that closes its candidates must not stop the turn.
    const ime = watchPageIme();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || isTakenKey(event, ime.guard)) return;
      event.preventDefault();
      stopRef.current?.click();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      ime.stop();
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [running, slotTakenOver]);

  const stop = async () => {
    setStopping(true);
    setError(null);
    const last = lastTurn(own(store.getState().transcripts, sessionId) ?? []);
    try {
      await onStop(sessionId);
      if (last) setStoppedTurn(last.userMessageId);
    } catch (failure) {
      setError(t("stopFailed", { reason: describeFailure(failure, t) }));
    } finally {
      setStopping(false);
    }
  };

  const retry = async () => {
    const last = lastTurn(own(store.getState().transcripts, sessionId) ?? []);
    if (!last) return;
    setBusy(true);
    setError(null);
    try {
      await onRetry(last.userText);
      setStoppedTurn(null);
    } catch (failure) {
      setError(t("retryFailed", { reason: describeFailure(failure, t) }));
    } finally {
      setBusy(false);
    }
  };

  if (running) {
    return (
      <div className="turn-bar">
        <span className="turn-bar__text">
          {turn === "waiting" && server !== undefined ? t("serverWaiting", { name: server }) : agentName === undefined ? t(turn === "waiting" ? "turnWaiting" : "turnRunning") : t(turn === "waiting" ? "agentWaiting" : "agentRunning", { name: agentName })}
        </span>
        <Button key="stop" ref={stopButton} variant="danger" onClick={() => void (stopping || stop())} aria-disabled={stopping} aria-keyshortcuts={slotTakenOver ? undefined : "Escape"}>
          {stopping ? t("stopping") : t("stop")}
        </Button>
        <TurnBarError error={error} />
      </div>
    );
  }

  const [ending, userMessageId] = ended === null ? [null, null] : (ended.split("\u0000") as [TurnEnding, string]);
  const stoppedHere = userMessageId !== null && stoppedTurn === userMessageId;
  if (ending === null || (!RETRY_ENDINGS.has(ending) && !stoppedHere)) return <TurnBarError error={error} />;
  const why = ending === "failed" ? t("turnFailed") : ending === "interrupted" ? t("turnInterrupted") : t("turnStopped");
  return (
    <div className="turn-bar" data-ending={ending}>
      <span className="turn-bar__text">{why}</span>
      <Button key="retry" ref={retryButton} onClick={() => void (busy || retry())} aria-disabled={busy}>
        {t("retryTurn")}
      </Button>
      <TurnBarError error={error} />
    </div>
  );
}

function TurnBarError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="turn-bar__error">
      {error}
    </p>
  ) : null;
}
