import type { DownFrame } from "../protocol/schemas";

export type DeltaFrame = Extract<DownFrame, { type: "message/delta" }>;
export type RowFrame = Extract<DownFrame, { type: "message/upserted" }>;
export type SessionFrame = Extract<DownFrame, { type: "session/upserted" }>;
/** What waits for the next paint: a reply's streamed text, the transcript rows that come with it, and the sessions' rows (their state, their place in the list). */
export type HeldFrame = DeltaFrame | RowFrame | SessionFrame;
export const isHeld = (frame: DownFrame): frame is HeldFrame => frame.type === "message/delta" || frame.type === "message/upserted" || frame.type === "session/upserted";

/** Runs `run` once, soon; returns nothing. The browser's default waits for the next paint (`nextPaint`). */
export type Schedule = (run: () => void) => void;

/**
 * Streamed text, transcript rows and session rows held until the next paint: a reply streamed in thousands of pieces, with
 * the tool rows an agent adds and updates as it works and the session's state changes, is applied, and so rendered, once a
 * frame instead of once a frame from the host; a question that follows them renders with them, once. Held frames are
 * applied in the order they came, except that the pieces of one message are joined into its first held piece until a row
 * of that message is held after it (pieces of different messages never depend on each other).
 * `flush` applies what is held at once: before any other frame, and before a fetch's result, so nothing is ever
 * applied out of order.
 */
export interface StreamedText {
  add(frame: HeldFrame): void;
  flush(): void;
}

const messageKey = (sessionId: string, messageId: string) => `${sessionId}\u0000${messageId}`;

export function createStreamedText(apply: (frames: HeldFrame[]) => void, schedule: Schedule): StreamedText {
  let held: HeldFrame[] = [];
  /** Per message, the place in `held` of the piece later pieces join, until a row of that message is held after it. */
  let joining = new Map<string, number>();
  let scheduled = false;

  function flush() {
    scheduled = false;
    if (held.length === 0) return;
    const frames = held;
    held = [];
    joining = new Map();
    apply(frames);
  }

  function hold(frame: HeldFrame) {
    if (frame.type !== "message/delta") {
      // A row: a message's ends the joining of that message's pieces; a session's joins nothing.
      if (frame.type === "message/upserted") joining.delete(messageKey(frame.message.sessionId, frame.message.id));
      held.push(frame);
      return;
    }
    const key = messageKey(frame.sessionId, frame.messageId);
    const at = joining.get(key);
    const before = at === undefined ? undefined : held[at];
    if (at !== undefined && before?.type === "message/delta") {
      held[at] = { ...before, text: before.text + frame.text };
      return;
    }
    joining.set(key, held.length);
    held.push(frame);
  }

  return {
    add(frame) {
      hold(frame);
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
