import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent, type RefObject } from "react";
import { createImeGuard } from "./ime";
import { canTakeFocus, focusInPanel, isTypingElsewhere, TYPING_WINDOW_MS, userIsHere, whenFreeToTakeOver } from "./typing-activity";

/**
 * What keeps a card that takes over the composer (a question panel, an approval card) from acting on a key or a tap meant
 * for something else: the held-key and arrival guards, and where focus waits while a response is sent.
 */

/** After a single-select choice moves on, the new step ignores choices this long, so a double tap answers one question; a card taking over from another ignores acting keys and taps as long. */
export const STEP_GUARD_MS = 300;

/** `Digit1`…`Digit9` and `Numpad1`…`Numpad9`: the physical key, so a full-width IME digit still counts. */
const NUMBER_CODE = /^(?:Digit|Numpad)([1-9])$/;

/** The option number a key stands for, 1…9, or null. */
export function numberKeyOf(event: Pick<KeyboardEvent, "code">): number | null {
  const match = NUMBER_CODE.exec(event.code);
  return match ? Number(match[1]) : null;
}

// ── Rules held-key and arrival-guard: keys and taps meant for something else ─────────────────────

type GuardedKey = Pick<KeyboardEvent, "key" | "code" | "shiftKey"> & { target: EventTarget | null };

/** A key that picks, moves on, sends or presses a button: Enter (not Shift+Enter), or Space or 1…9 outside a text field. */
export function isActingKey(event: GuardedKey): boolean {
  if (event.key === "Enter") return !event.shiftKey;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return false;
  return event.key === " " || numberKeyOf(event) !== null;
}

/**
 * A letter or a sign typed on a card's control that is not a text field (a radio, a button): it does nothing there, so it
 * was typing meant for somewhere else (the message box a question just took the focus from). Digits and Space act.
 */
function isStrayKey(event: GuardedKey & Pick<KeyboardEvent, "ctrlKey" | "metaKey" | "altKey">): boolean {
  if (event.key.length !== 1 || event.key === " " || numberKeyOf(event) !== null || event.ctrlKey || event.metaKey || event.altKey) return false;
  return !(event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement);
}

/** Still inside an arrival's window that ends at `until`. */
const arriving = (until: number) => performance.now() < until;

function swallow(event: Pick<Event, "preventDefault" | "stopPropagation">): void {
  event.preventDefault();
  event.stopPropagation();
}

/**
 * A takeover card's guard against keys and taps meant for something else. Rule held-key: an acting key's repeats while
 * it is held never act; only a press does. Rule stray-typing: after a letter typed on a control that takes none (typing
 * meant for the message box, say "ok then" as a question took the focus), no acting key is taken until the typing has
 * paused for TYPING_WINDOW_MS, so its Space or Enter never picks or sends. Rule arrival-guard: a card that took focus from the card it replaces (a
 * question panel or an approval card, whose request just left) takes, for its first STEP_GUARD_MS, no acting key, no
 * tap and no line break a phone keyboard sends, since they were meant for the card that went. Spread the handlers on
 * the card's root.
 */
export function usePanelKeyGuard(rootRef: RefObject<HTMLElement | null>, takesOver: boolean, isImeKey: (event: ReactKeyboardEvent) => boolean) {
  const [until] = useState(() => (takesOver ? performance.now() + STEP_GUARD_MS : Number.NEGATIVE_INFINITY));
  /** Rule stray-typing: after a stray key, acting keys wait until the typing has paused (TYPING_WINDOW_MS). */
  const strayUntil = useRef(Number.NEGATIVE_INFINITY);
  useEffect(() => {
    const root = rootRef.current;
    if (!root || until === Number.NEGATIVE_INFINITY) return;
    // Native, in the capture phase: a phone keyboard's Enter reaches the answer field as a line break, not a key.
    const onBeforeInput = (event: InputEvent) => {
      if ((event.inputType === "insertLineBreak" || event.inputType === "insertParagraph") && arriving(until)) swallow(event);
    };
    root.addEventListener("beforeinput", onBeforeInput, true);
    return () => root.removeEventListener("beforeinput", onBeforeInput, true);
  }, [rootRef, until]);
  return {
    onKeyDownCapture(event: ReactKeyboardEvent) {
      if (isImeKey(event)) return;
      if (isStrayKey(event)) strayUntil.current = performance.now() + TYPING_WINDOW_MS;
      else if (isActingKey(event) && (event.repeat || arriving(until) || arriving(strayUntil.current))) swallow(event);
    },
    onClickCapture(event: MouseEvent) {
      if (arriving(until)) swallow(event);
    },
  };
}

// ── Rule send-focus: focus waits on the heading while a response is sent ────────────────────────

/** Where focus waits while a send has the panel's controls disabled, and where it goes when the send fails. */
export interface SendFocus {
  /** As a send starts, before its controls are disabled. */
  hold(): void;
  /** Once a send that failed has enabled the controls again. */
  restore(): void;
}

const isNowhere = (element: Element | null) => element === null || element === document.body;

/**
 * A focused control that is disabled drops focus to the body (Chromium), where Enter and the number keys reach
 * nothing, and the next request's panel, not finding focus in the one it replaces, would arm no arrival guard: the
 * double press that answered here would answer it too. So focus in the panel (or on no element) waits on its
 * heading, which is never disabled, and a send that fails gives it back to the control it left, else to the step
 * (`focusPanel`). Focus the user moved elsewhere meanwhile stays there.
 */
export function useSendFocus(rootRef: RefObject<HTMLElement | null>, headingId: string, focusPanel: () => void): SendFocus {
  const heldRef = useRef<{ from: HTMLElement | null } | null>(null);
  return {
    hold() {
      const active = document.activeElement;
      const inPanel = active instanceof HTMLElement && rootRef.current?.contains(active) === true;
      if (!inPanel && !isNowhere(active)) return;
      heldRef.current = { from: inPanel ? active : null };
      document.getElementById(headingId)?.focus({ preventScroll: true });
    },
    restore() {
      const held = heldRef.current;
      heldRef.current = null;
      const active = document.activeElement;
      if (held === null || !(isNowhere(active) || active?.id === headingId)) return;
      held.from?.focus({ preventScroll: true });
      if (held.from === null || document.activeElement !== held.from) focusPanel();
    },
  };
}

/**
 * `useSendFocus` for a card that sends by itself: `hold` as a send starts, `failed` once it failed, and focus comes back
 * after the render that enabled the controls again.
 */
export function useCardSendFocus(rootRef: RefObject<HTMLElement | null>, headingId: string, focusCard: () => void): { hold(): void; failed(): void } {
  const focus = useSendFocus(rootRef, headingId, focusCard);
  const latest = useRef(focus);
  useEffect(() => {
    latest.current = focus;
  });
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures > 0) latest.current.restore();
  }, [failures]);
  return { hold: focus.hold, failed: () => setFailures((count) => count + 1) };
}

/**
 * An approval card's guards as one: IME keys told apart, the held-key and arrival guards (armed when the card takes over
 * from one that held the focus, `takeFocus` allowing), and focus held on its heading while it sends. Spread `rootProps`
 * on the card's root.
 */
export function useTakeoverCard(cardRef: RefObject<HTMLElement | null>, takeFocus: boolean, headingId: string) {
  const [imeGuard] = useState(createImeGuard);
  const isImeKey = (event: ReactKeyboardEvent) => imeGuard.isImeKey({ isComposing: event.nativeEvent.isComposing, keyCode: event.keyCode });
  // Read as it first renders, while the card it replaces (if any) is still on the page with the focus.
  const [takesOver] = useState(() => takeFocus && focusInPanel());
  const keyGuard = usePanelKeyGuard(cardRef, takesOver, isImeKey);
  const sendFocus = useCardSendFocus(cardRef, headingId, () => document.getElementById(headingId)?.focus());
  const rootProps = {
    onKeyDownCapture: keyGuard.onKeyDownCapture,
    onClickCapture: keyGuard.onClickCapture,
    onCompositionStart: imeGuard.onCompositionStart,
    onCompositionEnd: imeGuard.onCompositionEnd,
  };
  return { isImeKey, sendFocus, rootProps };
}

/**
 * Focuses the card's heading as a question panel takes over: at once when the user is here and not typing (an emptied,
 * idle composer is not typing), else once they are back and have stopped, never mid-press. A composer being typed in
 * keeps the focus and stays shown (composer-slot), so the card never takes a keystroke meant for it. Returns a cancel.
 */
export function takeFocusWhenFree(card: () => HTMLElement | null, heading: () => HTMLElement | null): () => void {
  const take = () => {
    if (!card()?.contains(document.activeElement)) heading()?.focus();
  };
  if (!isTypingElsewhere()) {
    if (canTakeFocus()) take();
    // Here but in a frame without the focus (a `/demo` preview): it takes none by itself, as the panel does not.
    if (canTakeFocus() || userIsHere()) return () => undefined;
  }
  return whenFreeToTakeOver(take);
}

/**
 * Focus to give once the next render is in: a Back button removes itself, and the control it undid should have the focus,
 * not the page's body. The returned function takes how to find that control and the state change that removes Back.
 */
export function useFocusAfterRender(): (find: () => HTMLElement | null | undefined, change: () => void) => void {
  const pending = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const find = pending.current;
    pending.current = null;
    find?.()?.focus();
  });
  return (find, change) => {
    pending.current = find;
    change();
  };
}
