import type { DownFrame } from "../../protocol/schemas";

/** Runs `work` however a subscriber needs to take the frames it publishes together (a downlink: one write a socket). */
export type Hold = (work: () => void) => void;

/** Where the host's parts publish frames and where the downlink takes them from: no part needs another to exist first. */
export interface FrameBus {
  publish(frame: DownFrame): void;
  /**
   * Runs `work`, which publishes frames that belong together (a question and its session's new state), so that each
   * subscriber's `hold` sees all of them: the downlink writes them to a socket at once, before `burst` returns.
   */
  burst(work: () => void): void;
  /** Returns the unsubscribe. */
  subscribe(listener: (frame: DownFrame) => void, hold?: Hold): () => void;
}

export function createFrameBus(): FrameBus {
  const listeners = new Set<(frame: DownFrame) => void>();
  const holds = new Set<Hold>();
  return {
    publish(frame) {
      for (const listener of listeners) listener(frame);
    },
    burst(work) {
      let run = work;
      for (const hold of holds) {
        const inner = run;
        run = () => hold(inner);
      }
      run();
    },
    subscribe(listener, hold) {
      listeners.add(listener);
      if (hold) holds.add(hold);
      return () => {
        listeners.delete(listener);
        if (hold) holds.delete(hold);
      };
    },
  };
}
