import type { DownFrame, Message } from "../../protocol/schemas";
import type { Logger } from "../log";
import { StorageError } from "../storage-error";
import type { Store, StoredMessage } from "../store";
import { perSession } from "./session-writes";

/** How often rows whose write failed are written again, until storage takes them. */
export const RETRY_WRITES_MS = 1000;

/** A stored row as the tabs see it: without what only the host needs. */
export function toWire(message: StoredMessage): Message {
  const { step: _step, rawArgs: _rawArgs, streaming: _streaming, ...wire } = message;
  return wire;
}

/**
 * Where every transcript row is written and published (docs/protocol.md, storage-errors): a row reaches the tabs whether or not
 * its write worked, so no tab is left showing a state the turn has moved past, and a failed write is tried again every
 * RETRY_WRITES_MS until storage takes it, so the store ends up holding what the tabs were shown.
 */
export interface Transcript {
  publish(message: StoredMessage): void;
  /** Writes (inserts or updates) and publishes a row; a failed write is rethrown, and written again later. */
  record(message: StoredMessage, insert: boolean): Promise<void>;
  /** Writes a row whose failure is already being reported to the user: a failure is logged and written again later, not thrown. */
  attempt(event: string, message: StoredMessage, insert: boolean): Promise<void>;
  /** Streams text into a row the tabs show; the row's text is written by whoever owns it. */
  delta(sessionId: string, messageId: string, text: string): void;
  /** Rows still waiting for storage. */
  unsettled(): number;
  /** Stops writing again the waiting rows of a chat that was deleted: they have nowhere to go. */
  forget(sessionId: string): void;
  /** Tries the waiting rows once more now, and stops trying later. */
  close(): Promise<void>;
}

export function createTranscript(options: { store: Store; broadcast(frame: DownFrame): void; log: Logger }): Transcript {
  const { store, log } = options;
  /** Each row's newest version whose write failed, to be written again (as an insert while its insert has not landed). */
  const waiting = new Map<string, { message: StoredMessage; insert: boolean }>();
  /** A row's writes go one at a time, in the order they were made, so an older version never lands after a newer one. */
  const inOrder = perSession();
  let timer: NodeJS.Timeout | null = null;
  /** A retry is running: a tick while storage hangs adds no second one. */
  let retrying = false;

  /**
   * Writes, in order with the row's other writes, the version `pick` names when its turn comes (none: nothing to do). It
   * supersedes a version still waiting to be written again: on success that one is dropped, on failure this one waits in
   * its place.
   */
  function writeInTurn(id: string, pick: () => { message: StoredMessage; insert: boolean } | undefined): Promise<boolean> {
    return inOrder(id, async () => {
      const picked = pick();
      if (!picked) return false;
      const insert = picked.insert || (waiting.get(id)?.insert ?? false);
      try {
        await (insert ? store.insertMessage(picked.message) : store.updateMessage(picked.message));
      } catch (error) {
        waiting.set(id, { message: picked.message, insert });
        keepTrying();
        throw error;
      }
      waiting.delete(id);
      return true;
    });
  }

  const write = (message: StoredMessage, insert: boolean) => writeInTurn(message.id, () => ({ message, insert }));

  function publish(message: StoredMessage) {
    options.broadcast({ type: "message/upserted", message: toWire(message) });
  }

  function keepTrying() {
    if (timer !== null) return;
    timer = setInterval(() => {
      if (!retrying) void retry();
    }, RETRY_WRITES_MS);
    timer.unref();
  }

  function forget(sessionId: string) {
    for (const [id, { message }] of waiting) if (message.sessionId === sessionId) waiting.delete(id);
  }

  /** Whether the chat is known to be gone (deleted here or by another host); a read that fails says nothing. */
  async function chatGone(sessionId: string): Promise<boolean> {
    try {
      return (await store.getSession(sessionId)) === null;
    } catch {
      return false;
    }
  }

  /**
   * Writes the waiting rows again, oldest first, and stops at the first that still fails, unless its chat is gone: its
   * rows are dropped and the others go on, so one deleted chat cannot hold back every other chat's rows.
   */
  async function retry() {
    retrying = true;
    try {
      await retryWaiting();
    } finally {
      retrying = false;
    }
  }

  async function retryWaiting() {
    for (const [id, { message }] of [...waiting]) {
      let written: boolean;
      try {
        // Whatever version waits when its turn comes: a newer one may have taken its place, been written or dropped meanwhile.
        written = await writeInTurn(id, () => waiting.get(id));
      } catch {
        if (!(await chatGone(message.sessionId))) return;
        forget(message.sessionId);
        log({ event: "message/dropped-chat-gone", sessionId: message.sessionId, messageId: id });
        continue;
      }
      if (written) log({ event: "message/written-late", sessionId: message.sessionId, messageId: id });
    }
    if (waiting.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  }

  return {
    publish,
    async record(message, insert) {
      try {
        await write(message, insert);
      } finally {
        publish(message);
      }
    },
    async attempt(event, message, insert) {
      try {
        await write(message, insert);
      } catch (error) {
        log({ event, sessionId: message.sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" });
      }
    },
    delta(sessionId, messageId, text) {
      options.broadcast({ type: "message/delta", sessionId, messageId, text });
    },
    unsettled: () => waiting.size,
    forget,
    async close() {
      if (waiting.size > 0) await retry();
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
