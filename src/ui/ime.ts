/** The parts of a keyboard event the IME guard reads. */
export interface ImeKeyEvent {
  isComposing?: boolean;
  keyCode?: number;
}

const IME_PROCESS_KEY_CODE = 229;

export type ScheduleTick = (callback: () => void) => void;

/**
 * Tracks composition on one element tree so a key that only confirms an IME candidate
 * is never taken as a command. Safari fires `compositionend` before the confirming
 * Enter's `keydown`, so a key in the same tick as `compositionend` is ignored too.
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
      return composing || endedThisTick || event.isComposing === true || event.keyCode === IME_PROCESS_KEY_CODE;
    },
  };
}

export type ImeGuard = ReturnType<typeof createImeGuard>;
