import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from "react";
import { DraftInView } from "../../ui/draft-in-view";
import { afterPress } from "../../ui/press-activity";
import { useCopy } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { ErrorBoundary } from "../../ui/error-boundary";
import { FailedPart } from "./failed-part";
import { chatCopy } from "./copy";
import { FOCUS_HANDED_EVENT } from "./message-box";
import { createSlotChoiceSelector, type SlotChoice, type SlotEntry } from "./slot-entries";
import { MODIFIER_KEYS } from "../../ui/keys";

export interface ComposerSlotProps {
  entries: readonly SlotEntry[];
  sessionId: string | null;
  /** The normal composer; it stays mounted (hidden) while an entry owns the slot. */
  composer: ReactNode;
  /** The composer's drafts per session id (the composer keeps them): a chat's draft keeps its takeover passive. */
  drafts: ReadonlyMap<string, string>;
}

/** For this long after a takeover ends, an Enter in the composer never sends the draft it gave back. */
export const RESTORED_ENTER_GUARD_MS = 500;


/**
 * A draft given back when a takeover ended, or one the box held when focus was handed to it (the Stop or Retry pressed
 * went away): when, and whether a key other than Enter has been pressed in it since. Until one has, a line says that
 * Enter sends it once another key is pressed.
 */
interface RestoredDraft {
  at: number;
  touched: boolean;
}

/** The conversation's one composer slot: the elected entry, else the normal composer. */
export function ComposerSlot({ entries, sessionId, composer, drafts }: ComposerSlotProps) {
  const t = useCopy(chatCopy);
  const selector = useMemo(() => createSlotChoiceSelector(entries, sessionId), [entries, sessionId]);
  const choice = useSessionStore(selector);
  const slotRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLDivElement>(null);
  const previous = useRef({ sessionId, takenOver: choice !== null });
  const wasHidden = useRef(false);
  const [composerFocused, setComposerFocused] = useState(false);
  const [restored, setRestored] = useState<RestoredDraft | null>(null);
  const takenOver = choice !== null;
  // A takeover not turned to yet leaves the composer in view while the chat's draft holds text, and its panel or card stays
  // passive (ui/typing-activity reads the box in view). Decided as the takeover arrives or the chat changes, from the
  // chat's own draft, in the render that shows it, and handed to the takeover (DraftInView) for its first render.
  const holdsDraft = () => sessionId !== null && (drafts.get(sessionId) ?? "") !== "";
  const arrival = `${sessionId ?? ""}\u0000${takenOver}`;
  const [kept, setKept] = useState({ arrival, draft: false });
  // React renders again at once, before anything of this render is used.
  if (kept.arrival !== arrival) setKept({ arrival, draft: takenOver && holdsDraft() });
  const draftKept = kept.draft;
  const keepDraft = (draft: boolean) => setKept((now) => (now.draft === draft ? now : { ...now, draft }));
  const hidden = takenOver && !composerFocused && !draftKept;
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
      if (!back) keepDraft(holdsDraft() && !slotRef.current?.contains(focused ?? null));
    });
  };
  // Turned to the takeover, by focus or by a press in it: the composer steps aside once the press is over.
  const onTurnToTakeover = (event: { target: EventTarget }) => {
    if (!composerRef.current?.contains(event.target as Node)) afterPress(() => keepDraft(false));
  };

  useLayoutEffect(() => {
    const sameSession = previous.current.sessionId === sessionId;
    const returned = previous.current.takenOver && !takenOver && sameSession;
    previous.current = { sessionId, takenOver };
    if (!returned) {
      if (takenOver || !sameSession) setRestored(null);
      return;
    }
    const field = composerRef.current?.querySelector<HTMLTextAreaElement | HTMLInputElement>("textarea, input");
    // Only a draft the takeover had hidden is given back; one that stayed in view never left.
    if (!wasHidden.current) return;
    setRestored(field && field.value !== "" ? { at: performance.now(), touched: false } : null);
    const active = document.activeElement;
    if (active && active !== document.body && !slotRef.current?.contains(active)) return;
    // A composer with nothing to type in (an outside agent's chat shows a notice) takes the focus on what it shows.
    (field ?? composerRef.current?.querySelector<HTMLElement>('[tabindex="-1"]'))?.focus();
  }, [takenOver, sessionId]);
  // After the effect above, so that one reads whether the composer was hidden before this render.
  useLayoutEffect(() => {
    wasHidden.current = hidden;
  });

  // Focus handed to a box holding a draft: the Enter that pressed the control that went, or its double, is not a send.
  useEffect(() => {
    const box = composerRef.current;
    if (!box) return;
    const onHanded = (event: Event) => {
      const field = event.target;
      if ((field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) && field.value !== "") setRestored({ at: performance.now(), touched: false });
    };
    box.addEventListener(FOCUS_HANDED_EVENT, onHanded);
    return () => box.removeEventListener(FOCUS_HANDED_EVENT, onHanded);
  }, []);

  // The Enter that finished the takeover, or a second one right after it, must not send the draft the composer gave back;
  // a held Enter's repeats never send.
  const onComposerKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Enter" && !event.shiftKey && event.nativeEvent.repeat && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
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
    <div className="composer-slot" ref={slotRef} data-owner={choice?.entry.key ?? "composer"} onFocus={onTurnToTakeover} onPointerDown={onTurnToTakeover}>
      <DraftInView.Provider value={draftKept}>{takeover}</DraftInView.Provider>
      {/* A composer being typed in when an entry takes over stays shown until focus leaves it, so no keystroke lands in a hidden field. */}
      <div
        className="composer-slot__composer"
        ref={composerRef}
        hidden={hidden}
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
