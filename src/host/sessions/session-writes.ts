import type { SessionCondition, SessionPatch, Store, StoredSession } from "../store";

/**
 * A session row's writes: each applies its patch and publishes the row as stored, one at a time per session (with the
 * reads some publishes need), so the frames a session's tabs get follow the order its writes were stored in.
 */
export function sessionWrites(store: Store, publish: (row: StoredSession) => void, published: (id: string) => StoredSession | undefined) {
  const inOrder = perSession();
  const write = (id: string, patch: SessionPatch, when?: SessionCondition) =>
    inOrder(id, async () => {
      const row = await store.patchSession(id, patch, when);
      if (row) publish(row);
      return row;
    });
  /** Stamps the session and publishes it; the tabs get its state even when the write fails (the failure is rethrown). */
  const touch = (id: string) =>
    inOrder(id, async () => {
      let row: StoredSession | null;
      try {
        row = await store.patchSession(id, { updatedAt: new Date().toISOString() });
      } catch (error) {
        // The write's failure is what the caller gets; a read that fails as well leaves the tabs as they were.
        const stored = published(id) ?? (await store.getSession(id).catch(() => null));
        if (stored) publish(stored);
        throw error;
      }
      if (row) publish(row);
    });
  return { inOrder, write, touch };
}

/**
 * Runs the jobs given for one key one after another (a failed job does not stop the next); other keys' run alongside.
 * `busy(key)` tells whether a job of that key is queued or running; `tail(key)` settles (never rejecting) once the jobs
 * of that key queued so far have.
 */
export function perSession() {
  const tails = new Map<string, Promise<void>>();
  const run = <T>(key: string, job: () => Promise<T>): Promise<T> => {
    const ran = (tails.get(key) ?? Promise.resolve()).then(job);
    const tail = ran.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return ran;
  };
  return Object.assign(run, { busy: (key: string) => tails.has(key), tail: (key: string) => tails.get(key) });
}
