/** After a single-select choice moves on, the new step ignores choices this long, so a double tap answers one question. */
export const STEP_GUARD_MS = 300;

/** A short window after an auto-advance in which the new step takes no choice. */
export function createStepGuard(windowMs: number = STEP_GUARD_MS) {
  let until = Number.NEGATIVE_INFINITY;
  return {
    arm(): void {
      until = performance.now() + windowMs;
    },
    active(): boolean {
      return performance.now() < until;
    },
  };
}
