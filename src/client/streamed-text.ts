import type { DownFrame } from "../protocol/schemas";

export type DeltaFrame = Extract<DownFrame, { type: "message/delta" }>;

/** Runs `run` once, soon; returns nothing. The browser's default waits for the next paint (`nextPaint`). */
export type Schedule = (run: () => void) => void;

/**
 * Streamed text held until the next paint: a reply streamed in thousands of pieces is applied, and so rendered, once
 * a frame instead of once a piece. Pieces of one message are joined in order; pieces of different messages are kept
 * apart (they never depend on each other). `flush` applies what is held at once: before any other frame, and before
 * a fetch's result, so nothing is ever applied out of order.
 */
export interface StreamedText {
  add(frame: DeltaFrame): void;
  flush(): void;
}

export function createStreamedText(apply: (frames: DeltaFrame[]) => void, schedule: Schedule): StreamedText {
  /** Held text per message, in the order each message's first piece arrived. */
  let held = new Map<string, DeltaFrame>();
  let scheduled = false;

  function flush() {
    scheduled = false;
    if (held.size === 0) return;
    const frames = [...held.values()];
    held = new Map();
    apply(frames);
  }

  return {
    add(frame) {
      const key = `${frame.sessionId}\u0000${frame.messageId}`;
      const before = held.get(key);
      held.set(key, before ? { ...before, text: before.text + frame.text } : frame);
      if (scheduled) return;
      scheduled = true;
      schedule(flush);
    },
    flush,
  };
}

/** How long held text may wait when no animation frame comes (a hidden tab gets none), in milliseconds. */
const HIDDEN_FLUSH_MS = 100;

/**
 * The browser's schedule: the next animation frame, or a short timer if none comes first (a tab hidden meanwhile gets
 * no animation frames); a plain timer where there is no DOM. `run` runs once, at whichever comes first: the other is
 * cancelled, so a late timer never applies text held since at a moment no frame asked for.
 */
export const nextPaint: Schedule = (run) => {
  if (typeof requestAnimationFrame !== "function") {
    setTimeout(run, 16);
    return;
  }
  const once = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    run();
  };
  const frame = requestAnimationFrame(once);
  const timer = setTimeout(once, HIDDEN_FLUSH_MS);
};
