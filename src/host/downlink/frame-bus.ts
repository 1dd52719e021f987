import type { DownFrame } from "../../protocol/schemas";

/** Where the host's parts publish frames and where the downlink takes them from: no part needs another to exist first. */
export interface FrameBus {
  publish(frame: DownFrame): void;
  /** Returns the unsubscribe. */
  subscribe(listener: (frame: DownFrame) => void): () => void;
}

export function createFrameBus(): FrameBus {
  const listeners = new Set<(frame: DownFrame) => void>();
  return {
    publish(frame) {
      for (const listener of listeners) listener(frame);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
