import { useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { useCopy } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { ErrorBoundary } from "../../ui/error-boundary";
import { FailedPart } from "./failed-part";
import { chatCopy } from "./copy";
import { createSlotChoiceSelector, type SlotChoice, type SlotEntry } from "./slot-entries";

export interface ComposerSlotProps {
  entries: readonly SlotEntry[];
  sessionId: string | null;
  /** The normal composer; it stays mounted (hidden) while an entry owns the slot. */
  composer: ReactNode;
}

/** For this long after a takeover ends, an Enter in the composer never sends the draft it gave back. */
export const RESTORED_ENTER_GUARD_MS = 500;

const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);

/** A draft given back when a takeover ended: when, and whether a key other than Enter has been pressed in it since. */
interface RestoredDraft {
  at: number;
  touched: boolean;
}

/** The conversation's one composer slot: the elected entry, else the normal composer. */
export function ComposerSlot({ entries, sessionId, composer }: ComposerSlotProps) {
  const t = useCopy(chatCopy);
  const selector = useMemo(() => createSlotChoiceSelector(entries, sessionId), [entries, sessionId]);
  const choice = useSessionStore(selector);
  const slotRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLDivElement>(null);
  const previous = useRef({ sessionId, takenOver: choice !== null });
  const [composerFocused, setComposerFocused] = useState(false);
  const pointerDown = usePointerDown();
  const [restored, setRestored] = useState<RestoredDraft | null>(null);
  const onComposerBlur = (event: FocusEvent<HTMLDivElement>) => {
    const still = event.currentTarget;
    if (still.contains(event.relatedTarget as Node | null) || still.contains(document.activeElement)) return;
    if (!pointerDown.current) {
      setComposerFocused(false);
      return;
    }
    // A press moved focus away: hiding now would shift the takeover under the pointer before the click lands.
    const hideUnlessBack = () => setTimeout(() => setComposerFocused(still.contains(document.activeElement)), 0);
    window.addEventListener("pointerup", hideUnlessBack, { once: true, capture: true });
  };

  useEffect(() => {
    const takenOver = choice !== null;
    const sameSession = previous.current.sessionId === sessionId;
    const returned = previous.current.takenOver && !takenOver && sameSession;
    previous.current = { sessionId, takenOver };
    if (!returned) {
      if (takenOver || !sameSession) setRestored(null);
      return;
    }
    const field = composerRef.current?.querySelector<HTMLTextAreaElement | HTMLInputElement>("textarea, input");
    setRestored(field && field.value !== "" ? { at: performance.now(), touched: false } : null);
    const active = document.activeElement;
    if (active && active !== document.body && !slotRef.current?.contains(active)) return;
    field?.focus();
  }, [choice, sessionId]);

  // The Enter that finished the takeover, or a second one right after it, must not send the draft the composer gave back.
  const onComposerKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (restored === null || event.nativeEvent.isComposing) return;
    if (event.key !== "Enter" || event.shiftKey) {
      if (!restored.touched && !MODIFIER_KEYS.has(event.key)) setRestored({ ...restored, touched: true });
      return;
    }
    if (restored.touched && performance.now() - restored.at >= RESTORED_ENTER_GUARD_MS) {
      setRestored(null);
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  };
  const restoredHint = restored !== null && !restored.touched && choice === null;
  // The same element while the choice holds: the slot's own state (the composer's focus, a restored draft) and a parent's
  // render (the session's new state) never render the entry again, so a question's panel renders once as it arrives.
  const takeover = useMemo(
    () =>
      choice &&
      sessionId !== null && (
        <ErrorBoundary
          key={`${choice.entry.key}\u0000${sessionId}`}
          resetKey={choice.match}
          fallback={(error, retry) => <FailedPart summary={t("slotFailed")} error={error} retry={retry} onDismiss={dismissOf(choice, sessionId)} />}
        >
          <choice.entry.Component match={choice.match} sessionId={sessionId} />
        </ErrorBoundary>
      ),
    [choice, sessionId, t],
  );

  return (
    <div className="composer-slot" ref={slotRef} data-owner={choice?.entry.key ?? "composer"}>
      {takeover}
      {/* A composer being typed in when an entry takes over stays shown until focus leaves it, so no keystroke lands in a hidden field. */}
      <div
        className="composer-slot__composer"
        ref={composerRef}
        hidden={choice !== null && !composerFocused}
        onFocus={() => setComposerFocused(true)}
        onBlur={onComposerBlur}
        onKeyDownCapture={onComposerKeyDown}
        // A draft sent with the Send button is no longer a draft given back.
        onSubmitCapture={() => setRestored(null)}
      >
        {restoredHint && (
          <p className="composer-slot__restored" role="status">
            {t("draftRestored")}
          </p>
        )}
        {composer}
      </div>
    </div>
  );
}

/** Whether a pointer is pressed anywhere in the document right now. */
function usePointerDown(): RefObject<boolean> {
  const down = useRef(false);
  useEffect(() => {
    const press = () => (down.current = true);
    const release = () => (down.current = false);
    document.addEventListener("pointerdown", press, true);
    document.addEventListener("pointerup", release, true);
    document.addEventListener("pointercancel", release, true);
    return () => {
      document.removeEventListener("pointerdown", press, true);
      document.removeEventListener("pointerup", release, true);
      document.removeEventListener("pointercancel", release, true);
    };
  }, []);
  return down;
}

function dismissOf(choice: SlotChoice, sessionId: string): (() => Promise<void>) | undefined {
  const { entry, match } = choice;
  if (!entry.dismiss) return undefined;
  return () => entry.dismiss!(match, sessionId);
}
