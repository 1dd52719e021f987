import { documentWatcher } from "./document-watcher";

/** How long after a keystroke elsewhere a new panel still counts the user as typing. */
export const TYPING_WINDOW_MS = 1500;

const PANEL_SELECTOR = "[data-question-panel]";
const NON_TEXT_INPUT_TYPES = new Set(["button", "checkbox", "color", "file", "hidden", "image", "radio", "range", "reset", "submit"]);

let lastKeystrokeAt = Number.NEGATIVE_INFINITY;

function isInsidePanel(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(PANEL_SELECTOR) !== null;
}

function recordKeystroke(event: Event): void {
  if (!isInsidePanel(event.target)) lastKeystrokeAt = performance.now();
}

/** Starts watching keystrokes outside the panel; the module does this when it loads, and it is safe to call again. */
export const watchTyping = documentWatcher([
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

/**
 * Whether the user is busy typing somewhere other than the question panel: focus in any text
 * field outside it (even an empty one, such as the composer right after sending), or a keystroke
 * in the last 1.5 s.
 */
export function isTypingElsewhere(now: number = performance.now()): boolean {
  if (typeof document === "undefined") return false;
  const active = document.activeElement;
  if (active !== null && isTextField(active) && !isInsidePanel(active)) return true;
  return now - lastKeystrokeAt < TYPING_WINDOW_MS;
}

/** Forgets the last keystroke; for tests. */
export function resetTypingActivity(): void {
  lastKeystrokeAt = Number.NEGATIVE_INFINITY;
}

watchTyping();
