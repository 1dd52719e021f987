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
 * such as Gboard send it for most keys outside any composition. Safari fires
 * `compositionend` before the confirming Enter's `keydown`, so a key in the same tick
 * as `compositionend` is ignored too.
 */
export function createImeGuard(scheduleTick: ScheduleTick = (callback) => setTimeout(callback, 0)) {
  let composing = false;
  let endedThisTick = false;
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
    isImeKey(event: ImeKeyEvent): boolean {
      return composing || endedThisTick || event.isComposing === true;
    },
  };
}

export type ImeGuard = ReturnType<typeof createImeGuard>;

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
