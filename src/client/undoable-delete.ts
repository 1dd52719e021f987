/** How long a deleted chat can be brought back before the host is told, in milliseconds. */
export const UNDO_DELETE_MS = 6000;

export interface DeleteTimers {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface UndoableDeletes {
  /** Hides the session now and deletes it on the host once the undo window has passed. */
  request(sessionId: string): void;
  /** Brings a hidden session back; false when it was already deleted on the host. */
  undo(sessionId: string): boolean;
  /** Deletes every session still waiting, at once (the page is going away). */
  flush(): void;
  /** The sessions hidden and not yet deleted, oldest request first. */
  pending(): readonly string[];
}

/**
 * Deletion with an undo window: `onChange` reports the hidden set after every change; `remove` is the
 * host call, and a failed one brings the session back and reports the error.
 */
export function createUndoableDeletes(options: {
  remove: (sessionId: string) => Promise<void>;
  onChange: (hidden: ReadonlySet<string>) => void;
  onError: (sessionId: string, error: unknown) => void;
  timers?: DeleteTimers;
  delayMs?: number;
}): UndoableDeletes {
  const timers = options.timers ?? { setTimeout: (callback, delay) => globalThis.setTimeout(callback, delay), clearTimeout: (handle) => globalThis.clearTimeout(handle as number) };
  const waiting = new Map<string, unknown>();
  const hidden = new Set<string>();
  const report = () => options.onChange(new Set(hidden));

  const commit = (sessionId: string) => {
    waiting.delete(sessionId);
    options.remove(sessionId).then(
      () => {
        hidden.delete(sessionId);
        report();
      },
      (error: unknown) => {
        hidden.delete(sessionId);
        report();
        options.onError(sessionId, error);
      },
    );
  };

  return {
    request(sessionId) {
      if (hidden.has(sessionId)) return;
      hidden.add(sessionId);
      waiting.set(sessionId, timers.setTimeout(() => commit(sessionId), options.delayMs ?? UNDO_DELETE_MS));
      report();
    },
    undo(sessionId) {
      if (!waiting.has(sessionId)) return false;
      timers.clearTimeout(waiting.get(sessionId));
      waiting.delete(sessionId);
      hidden.delete(sessionId);
      report();
      return true;
    },
    flush() {
      for (const [sessionId, handle] of [...waiting]) {
        timers.clearTimeout(handle);
        commit(sessionId);
      }
    },
    pending: () => [...waiting.keys()],
  };
}
