import { useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from "react";
import { afterPress } from "../../ui/press-activity";
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
  // A takeover not turned to yet leaves the composer in view while it holds a draft, as its panel stays passive (ui/typing-activity).
  const [draftKept, setDraftKept] = useState(false);
  const holdsDraft = () => (composerRef.current?.querySelector("textarea")?.value ?? "") !== "";
  const [restored, setRestored] = useState<RestoredDraft | null>(null);
  const takenOver = choice !== null;
  // A press that moves focus changes nothing before it ends: hiding the composer would shift the takeover under the pointer.
  const onComposerBlur = (event: FocusEvent<HTMLDivElement>) => {
    const still = event.currentTarget;
    const to = event.relatedTarget as Node | null;
    if (still.contains(to) || still.contains(document.activeElement)) return;
    afterPress(() => {
      const focused = document.activeElement === document.body ? to : document.activeElement;
      const back = still.contains(focused);
      setComposerFocused(back);
      // Left for anywhere but the takeover: a draft stays in view.
      if (!back) setDraftKept(holdsDraft() && !slotRef.current?.contains(focused ?? null));
    });
  };
  // Focus turned to the takeover: the composer steps aside.
  const onSlotFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (!composerRef.current?.contains(event.target)) afterPress(() => setDraftKept(false));
  };

  // Before the paint, so a draft kept in view never flickers out as a takeover arrives.
  useLayoutEffect(() => {
    const sameSession = previous.current.sessionId === sessionId;
    const returned = previous.current.takenOver && !takenOver && sameSession;
    const arrived = takenOver && !(previous.current.takenOver && sameSession);
    previous.current = { sessionId, takenOver };
    if (arrived) setDraftKept(holdsDraft());
    if (!returned) {
      if (takenOver || !sameSession) setRestored(null);
      return;
    }
    const field = composerRef.current?.querySelector<HTMLTextAreaElement | HTMLInputElement>("textarea, input");
    setRestored(field && field.value !== "" ? { at: performance.now(), touched: false } : null);
    const active = document.activeElement;
    if (active && active !== document.body && !slotRef.current?.contains(active)) return;
    field?.focus();
  }, [takenOver, sessionId]);

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
    <div className="composer-slot" ref={slotRef} data-owner={choice?.entry.key ?? "composer"} onFocus={onSlotFocus}>
      {takeover}
      {/* A composer being typed in when an entry takes over stays shown until focus leaves it, so no keystroke lands in a hidden field. */}
      <div
        className="composer-slot__composer"
        ref={composerRef}
        hidden={takenOver && !composerFocused && !draftKept}
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

function dismissOf(choice: SlotChoice, sessionId: string): (() => Promise<void>) | undefined {
  const { entry, match } = choice;
  if (!entry.dismiss) return undefined;
  return () => entry.dismiss!(match, sessionId);
}
