import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent, type RefObject } from "react";
import { numberKeyOf, STEP_GUARD_MS } from "../../ui/takeover-guard";
import { isTextField } from "../../ui/typing-activity";

/**
 * The question wizard's keyboard and focus rules, one place for all of them
 * (docs/architecture.md, "The question panel's keys and focus"). Elements are found by ARIA role
 * or by the `data-step-part` attribute the step's parts carry, never by a class name, so a
 * restyle cannot break a rule.
 */

/** The parts of a step a rule needs to find; rendered as `data-step-part`. */
export type StepPart = "heading" | "custom" | "pager" | "stepper";

/** The attribute that marks a step part: spread it on the element, e.g. `<h2 {...stepPart("heading")}>`. */
export function stepPart(part: StepPart): { "data-step-part": StepPart } {
  return { "data-step-part": part };
}

const partSelector = (part: StepPart) => `[data-step-part="${part}"]`;

/** What each rule looks for. */
const SELECTOR = {
  checkedRadio: '[role="radio"][data-state="checked"]',
  firstControl: `[role="radio"], [role="checkbox"], textarea${partSelector("custom")}`,
  customField: partSelector("custom"),
  heading: partSelector("heading"),
  pager: partSelector("pager"),
  stepper: partSelector("stepper"),
  enabledCheckbox: '[role="checkbox"]:not([disabled])',
} as const;

// ── Rule step-focus-target: where focus lands on a step ─────────────────────────────────────────

/**
 * Focuses the step's checked radio, else its first radio, checkbox or free-text textarea, else
 * its one-line field (a form step of a text, number or date field), else its heading (a one-line
 * field under options never comes first: the options do); false when the step has none of these.
 * A one-line field that still holds the question's default (`data-prefilled`) has it selected, so what is typed replaces
 * it (a text area's default, often a paragraph to edit, is not).
 */
export function focusStep(root: HTMLElement | null): boolean {
  const target =
    root?.querySelector<HTMLElement>(SELECTOR.checkedRadio) ??
    root?.querySelector<HTMLElement>(SELECTOR.firstControl) ??
    root?.querySelector<HTMLElement>(SELECTOR.customField) ??
    root?.querySelector<HTMLElement>(SELECTOR.heading);
  target?.focus({ preventScroll: true });
  if (target instanceof HTMLInputElement && target.hasAttribute("data-prefilled")) target.select();
  return target !== null && target !== undefined;
}

// ── Rule step-focus-follows: focus follows the step, except while paging ────────────────────────

/** Whether focus sits on an enabled pager button (Previous, Next; not a stepper item), where it stays while the user pages. */
function isPaging(active: Element | null): boolean {
  return active instanceof HTMLButtonElement && !active.disabled && active.closest(SELECTOR.pager) !== null && active.closest(SELECTOR.stepper) === null;
}

/**
 * Puts focus on the step's first control: once on mount when `takeFocus` says so, then on
 * each step change while focus is inside the wizard (or was lost to the body), except while
 * the user pages with the pager buttons from the keyboard (a click on them moves focus on, as every click that opens a
 * step does, so what is typed next lands in the step).
 */
export function useStepFocus(rootRef: RefObject<HTMLElement | null>, index: number, takeFocus: boolean): void {
  const [focusOnMount] = useState(takeFocus);
  const shownIndexRef = useRef<number | null>(null);
  /** Whether the last press in the wizard was a pointer's (a click), not a key's. */
  const pointerRef = useRef(false);
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const onPointer = () => (pointerRef.current = true);
    const onKey = () => (pointerRef.current = false);
    root.addEventListener("pointerdown", onPointer, true);
    root.addEventListener("keydown", onKey, true);
    return () => {
      root.removeEventListener("pointerdown", onPointer, true);
      root.removeEventListener("keydown", onKey, true);
    };
  }, [rootRef]);
  useEffect(() => {
    const shown = shownIndexRef.current;
    shownIndexRef.current = index;
    if (shown === index) return;
    if (shown === null) {
      if (focusOnMount) focusStep(rootRef.current);
      return;
    }
    const active = document.activeElement;
    if (isPaging(active) && !pointerRef.current) return;
    if (active === document.body || rootRef.current?.contains(active)) focusStep(rootRef.current);
  }, [rootRef, index, focusOnMount]);
}

// ── Rule step-scroll: a new step starts at its top ──────────────────────────────────────────────

/** Scrolls the step's body to its top and brings its heading into view (the sheet may be scrolled on a phone). */
export function revealStep(root: HTMLElement | null, body: HTMLElement | null): void {
  if (body) body.scrollTop = 0;
  root?.querySelector(SELECTOR.heading)?.scrollIntoView?.({ block: "nearest" });
}

// ── Rule answer-shortcut: Alt+Q turns to the panel ──────────────────────────────────────────────

/** Alt+Q (Option+Q on a Mac) turns to the question panel from anywhere on the page; read by the physical key. */
export function isAnswerShortcut(event: Pick<KeyboardEvent, "altKey" | "ctrlKey" | "metaKey" | "shiftKey" | "code" | "isComposing">): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === "KeyQ" && !event.isComposing;
}

/** Calls `onShortcut` on Alt+Q / Option+Q anywhere in the document but a question panel's field while the panel is mounted. */
export function useAnswerShortcut(onShortcut: () => void): void {
  const latest = useRef(onShortcut);
  useEffect(() => {
    latest.current = onShortcut;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // In a panel's own field the key is the field's: Option+Q types œ or « there, and focus stays put.
      if (!isAnswerShortcut(event) || (event.target instanceof Element && event.target.closest("[data-question-panel]") !== null && isTextField(event.target))) return;
      event.preventDefault();
      latest.current();
    };
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, []);
}

// ── Rule panel-escape: Escape collapses, or closes the discard confirmation ─────────────────────

/** Escape that the panel takes: not part of a composition, and only while the card is open and idle. */
export function isPanelEscape(event: Pick<KeyboardEvent, "key">, imeKey: boolean, collapsed: boolean, busy: boolean): boolean {
  return event.key === "Escape" && !imeKey && !collapsed && !busy;
}

// ── Rule number-keys: 1…9 choose an option ──────────────────────────────────────────────────────

/** Options past this one show no key hint and have no number key. */
export const MAX_NUMBER_KEY = 9;


// ── Rule step-keys: what Enter and the number keys do on a question step ────────────────────────

/** What a key pressed inside a question step asks the wizard to do. */
export type StepKey =
  /** Enter as the primary button; `inText` when pressed in the free-text field. */
  | { kind: "enter"; inText: boolean }
  /** A number key: choose (single-select) or toggle (multi-select) that option. */
  | { kind: "number"; number: number };

type StepKeyEvent = Pick<KeyboardEvent, "key" | "code" | "shiftKey" | "altKey" | "ctrlKey" | "metaKey"> & { target: EventTarget | null };

/**
 * Reads a keydown inside a question step (IME keys are filtered before). Enter is left to a radio
 * (it picks, see rule radio-enter), a link, and any button but a checkbox; Shift+Enter in the
 * textarea is a newline. Number keys never count in a text field or with a modifier.
 */
export function readStepKey(event: StepKeyEvent): StepKey | null {
  const target = event.target instanceof HTMLElement ? event.target : null;
  const role = target?.getAttribute("role") ?? null;
  const inText = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
  if (event.key === "Enter") {
    if (role === "radio" || target instanceof HTMLAnchorElement) return null;
    if (target instanceof HTMLButtonElement && role !== "checkbox") return null;
    if (event.shiftKey && target instanceof HTMLTextAreaElement) return null;
    return { kind: "enter", inText };
  }
  if (inText || event.altKey || event.ctrlKey || event.metaKey) return null;
  const number = numberKeyOf(event);
  return number === null ? null : { kind: "number", number };
}

// ── Rule radio-enter: Enter on a radio picks it ─────────────────────────────────────────────────

/** Enter on a radio is a deliberate pick (on the last question it also sends); Radix would ignore it. */
export function isPickEnter(event: Pick<KeyboardEvent, "key">, imeKey: boolean): boolean {
  return event.key === "Enter" && !imeKey;
}

// ── Rule checkbox-roving: arrows move between a multi-select's checkboxes ───────────────────────

const NEXT_KEYS = new Set(["ArrowDown", "ArrowRight"]);
const PREVIOUS_KEYS = new Set(["ArrowUp", "ArrowLeft"]);

/** Arrow keys, Home and End move focus between a multi-select group's checkboxes, as in a radio group, without toggling; mirrored in RTL. */
export function moveCheckboxFocus(event: ReactKeyboardEvent<HTMLElement>): void {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const boxes = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(SELECTOR.enabledCheckbox));
  const at = boxes.indexOf(event.target as HTMLElement);
  if (at === -1) return;
  const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
  const key = rtl && (event.key === "ArrowLeft" || event.key === "ArrowRight") ? (event.key === "ArrowLeft" ? "ArrowRight" : "ArrowLeft") : event.key;
  let to: number | null = null;
  if (NEXT_KEYS.has(key)) to = Math.min(boxes.length - 1, at + 1);
  else if (PREVIOUS_KEYS.has(key)) to = Math.max(0, at - 1);
  else if (key === "Home") to = 0;
  else if (key === "End") to = boxes.length - 1;
  if (to === null) return;
  event.preventDefault();
  boxes[to]!.focus();
}

// ── Rule arrow-no-advance: Radix's arrow-key click never advances ───────────────────────────────

const ARROW_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);

/**
 * Whether an arrow key is held. Radix moves a radio group's selection with a synthetic
 * click on focus while an arrow key is down; such a click must not advance the wizard.
 */
export function useArrowKeyPressed(): RefObject<boolean> {
  const pressed = useRef(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (ARROW_KEYS.has(event.key)) pressed.current = true;
    };
    const onKeyUp = () => {
      pressed.current = false;
    };
    document.addEventListener("keydown", onKeyDown, true);
    document.addEventListener("keyup", onKeyUp, true);
    return () => {
      document.removeEventListener("keydown", onKeyDown, true);
      document.removeEventListener("keyup", onKeyUp, true);
    };
  }, []);
  return pressed;
}

// ── Rule step-guard: a double tap answers one question ──────────────────────────────────────────

/** A second tap this close to the first counts as the same double tap. */
export const DOUBLE_TAP_PX = 32;

/** Where a pointer choice happened; null for a key. */
export type ChoicePoint = { x: number; y: number } | null;

/** A click made by a pointer has a position; one made by Space or Enter (detail 0) does not. */
export function pointOf(event: Pick<MouseEvent, "detail" | "clientX" | "clientY">): ChoicePoint {
  return event.detail === 0 ? null : { x: event.clientX, y: event.clientY };
}

/**
 * A short window after an auto-advance in which the new step takes no choice made by a key, or
 * by a tap where the advancing tap was (the second half of a double tap).
 */
export function createStepGuard(windowMs: number = STEP_GUARD_MS) {
  let until = Number.NEGATIVE_INFINITY;
  let armedAt: ChoicePoint = null;
  return {
    arm(point: ChoicePoint): void {
      until = performance.now() + windowMs;
      armedAt = point;
    },
    /** The user did something else on the new step (typed an answer): the next choice is deliberate. */
    disarm(): void {
      until = Number.NEGATIVE_INFINITY;
    },
    blocks(point: ChoicePoint): boolean {
      if (performance.now() >= until) return false;
      if (point === null || armedAt === null) return true;
      return Math.hypot(point.x - armedAt.x, point.y - armedAt.y) < DOUBLE_TAP_PX;
    },
  };
}

export type StepGuard = ReturnType<typeof createStepGuard>;

