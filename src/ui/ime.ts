/** The parts of a keyboard event the IME guard reads. */
export interface ImeKeyEvent {
  isComposing?: boolean;
  keyCode?: number;
}

export type ScheduleTick = (callback: () => void) => void;

/**
 * Tracks composition on one element tree so a key that only confirms an IME candidate
 * is never taken as a command. It reads real composition state only: the composition
 * events and `isComposing`. `keyCode` 229 alone proves nothing, since Android keyboards
 * such as Gboard send it for most keys outside any composition (an Escape is the one
 * exception, see `isImeEscape`). Safari fires `compositionend` before the confirming
 * Enter's `keydown`, so a key in the same tick as `compositionend` is ignored too.
 */
export function createImeGuard(scheduleTick: ScheduleTick = (callback) => setTimeout(callback, 0)) {
  let composing = false;
  let endedThisTick = false;
  const isImeKey = (event: ImeKeyEvent): boolean => composing || endedThisTick || event.isComposing === true;
  return {
    onCompositionStart(): void {
      composing = true;
    },
    onCompositionEnd(): void {
      composing = false;
      endedThisTick = true;
      scheduleTick(() => {
        endedThisTick = false;
      });
    },
    isImeKey,
    /**
     * An Escape that only closes the IME's candidates: one `isImeKey` blocks, or one with `keyCode` 229, the IME's
     * own, which Safari sends after `compositionend` and not composing. No on-screen keyboard has an Escape key, so
     * here 229 never stands for a plain key as it does for Gboard's.
     */
    isImeEscape(event: ImeKeyEvent): boolean {
      return isImeKey(event) || event.keyCode === 229;
    },
  };
}

export type ImeGuard = ReturnType<typeof createImeGuard>;

/**
 * A guard fed by every composition on the page, for a key listener that is not on the field composing (a document's
 * Escape, a drawer's): `stop` lets go of the page.
 */
export function watchPageIme(): { guard: ImeGuard; stop(): void } {
  const guard = createImeGuard();
  document.addEventListener("compositionstart", guard.onCompositionStart);
  document.addEventListener("compositionend", guard.onCompositionEnd);
  return {
    guard,
    stop() {
      document.removeEventListener("compositionstart", guard.onCompositionStart);
      document.removeEventListener("compositionend", guard.onCompositionEnd);
    },
  };
}

/** The parts of an input event `isLineBreakInput` reads. */
export interface LineBreakInputEvent {
  inputType: string;
  isComposing?: boolean;
}

/**
 * Whether a `beforeinput` is an Enter outside composition: the only sign of Enter some
 * Android keyboards give (`insertLineBreak`, or `insertParagraph` in editable content).
 */
export function isLineBreakInput(event: LineBreakInputEvent): boolean {
  return (event.inputType === "insertLineBreak" || event.inputType === "insertParagraph") && event.isComposing !== true;
}
