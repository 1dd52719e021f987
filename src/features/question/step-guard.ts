/** After a single-select choice moves on, the new step ignores choices this long, so a double tap answers one question. */
export const STEP_GUARD_MS = 300;
/** A second tap this close to the first counts as the same double tap. */
export const DOUBLE_TAP_PX = 32;

/** Where a pointer choice happened; null for a key. */
export type ChoicePoint = { x: number; y: number } | null;

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
