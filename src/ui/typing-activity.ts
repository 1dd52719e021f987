import { documentWatcher } from "./document-watcher";
import { afterPress } from "./press-activity";

/** How long after a keystroke in a text field elsewhere a new panel still counts the user as typing. */
export const TYPING_WINDOW_MS = 1500;
/** How often a passive panel looks again whether the user stopped typing. */
const TYPING_POLL_MS = 200;

/** A card that takes over the composer: a question panel, or an approval card. */
const PANEL_SELECTOR = "[data-question-panel], [data-approval-card]";
const NON_TEXT_INPUT_TYPES = new Set(["button", "checkbox", "color", "file", "hidden", "image", "radio", "range", "reset", "submit"]);

let lastKeystrokeAt = Number.NEGATIVE_INFINITY;
/** When a pointer last pressed into a text field outside the cards: the user turning to type there. */
let lastFieldPressAt = Number.NEGATIVE_INFINITY;

function isInsidePanel(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(PANEL_SELECTOR) !== null;
}

/** Whether focus is in a question panel or an approval card now: a card rendered then takes over from one still on screen. */
export function focusInPanel(): boolean {
  return isInsidePanel(document.activeElement);
}

/** A plain Enter sends what the field holds: it ends the typing, and the field's text (if it stays) still counts. */
function isSendingEnter(event: Event): boolean {
  return event instanceof KeyboardEvent && event.key === "Enter" && !event.shiftKey && !event.isComposing;
}

function recordKeystroke(event: Event): void {
  const target = event.target instanceof Element ? event.target : null;
  if (isInsidePanel(target) || !isTextField(target)) return;
  lastKeystrokeAt = isSendingEnter(event) ? Number.NEGATIVE_INFINITY : performance.now();
}

function recordFieldPress(event: Event): void {
  const target = event.target instanceof Element ? event.target : null;
  if (!isInsidePanel(target) && isTextField(target)) lastFieldPressAt = performance.now();
}

/** Starts watching keystrokes outside the panel; the module does this when it loads, and it is safe to call again. */
export const watchTyping = documentWatcher([
  ["pointerdown", recordFieldPress],
  ["keydown", recordKeystroke],
  ["beforeinput", recordKeystroke],
  ["compositionupdate", recordKeystroke],
]);

/** Whether an element takes typed text: a text-like input, a textarea, or an editable element. */
export function isTextField(element: Element | null): boolean {
  if (element instanceof HTMLTextAreaElement) return !element.readOnly && !element.disabled;
  if (element instanceof HTMLInputElement) return !NON_TEXT_INPUT_TYPES.has(element.type) && !element.readOnly && !element.disabled;
  return element instanceof HTMLElement && element.isContentEditable;
}

/** Whether a text field (an input or a textarea by its value, an editable element by its text) holds text. */
function holdsText(element: Element): boolean {
  return ((element as Partial<HTMLInputElement>).value ?? element.textContent) !== "";
}


/**
 * Whether the user is busy typing somewhere other than the question panel: focus in a text field
 * outside it that holds text, a message box in view that holds text (`draftInView`, when given), or a keystroke in a text field
 * in the last 1.5 s. An emptied composer is not typing, nor is the Enter that sent its message.
 */
export function isTypingElsewhere(draftInView: boolean | null = null, now: number = performance.now()): boolean {
  const active = document.activeElement;
  if (active !== null && isTextField(active) && !isInsidePanel(active) && holdsText(active)) return true;
  // The message box marks itself `data-draft` while it holds text; its draft counts while it is in view, focused or not.
  // A takeover's first render is told (`draftInView`): the page then still shows what the last render left.
  if (draftInView ?? document.querySelector("[data-draft]:not([hidden] *)")) return true;
  return now - lastKeystrokeAt < TYPING_WINDOW_MS;
}

/**
 * Calls `onStopped` once the user is no longer typing elsewhere (the composer was emptied by
 * sending, or 1.5 s passed) and `ready()` holds; returns a cancel.
 */
export function whenTypingStops(onStopped: () => void, ready: () => boolean = () => true): () => void {
  const timer = setInterval(() => {
    if (isTypingElsewhere() || !ready()) return;
    clearInterval(timer);
    onStopped();
  }, TYPING_POLL_MS);
  return () => clearInterval(timer);
}

/** Whether this document may take the focus now: its tab shown and it holding the window's focus. */
export function canTakeFocus(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

/** Whether the user is at this page: its tab shown and its window focused (a frame, as a `/demo` preview is, asks its top page). */
export function userIsHere(): boolean {
  if (document.visibilityState !== "visible") return false;
  try {
    return window.top!.document.hasFocus();
  } catch {
    return document.hasFocus();
  }
}

/**
 * Calls `take` once the user is no longer typing elsewhere and this document may take the focus, never mid-press (what
 * takes over moves, and the tap would land elsewhere); a user typing again by the press's end is waited for again. A
 * press into a text field while it waits (coming back by clicking into the message box) starts typing there: it waits
 * the typing window from that press, so the first keys go to the field, not to what takes over.
 * Returns a cancel. The question panel and the approval card take over the composer slot this way.
 */
export function whenFreeToTakeOver(take: () => void): () => void {
  let live = true;
  let stop: (() => void) | null = null;
  const since = performance.now();
  const turnedToType = () => lastFieldPressAt >= since && performance.now() - lastFieldPressAt < TYPING_WINDOW_MS;
  const free = () => canTakeFocus() && !turnedToType();
  const wait = () => {
    stop = whenTypingStops(
      () =>
        afterPress(() => {
          if (!live) return;
          if (isTypingElsewhere() || !free()) wait();
          else take();
        }),
      free,
    );
  };
  wait();
  return () => {
    live = false;
    stop?.();
  };
}

/** Forgets the last keystroke; for tests. */
export function resetTypingActivity(): void {
  lastKeystrokeAt = Number.NEGATIVE_INFINITY;
  lastFieldPressAt = Number.NEGATIVE_INFINITY;
}

watchTyping();
