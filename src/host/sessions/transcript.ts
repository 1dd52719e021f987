import type { DownFrame, Message } from "../../protocol/schemas";
import type { Logger } from "../log";
import { StorageError } from "../storage-error";
import type { Store, StoredMessage } from "../store";

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
  /** Tries the waiting rows once more now, and stops trying later. */
  close(): Promise<void>;
}

export function createTranscript(options: { store: Store; broadcast(frame: DownFrame): void; log: Logger }): Transcript {
  const { store, log } = options;
  const waiting = new Map<string, { message: StoredMessage; insert: boolean }>();
  let timer: NodeJS.Timeout | null = null;
  const write = (message: StoredMessage, insert: boolean) => (insert ? store.insertMessage(message) : store.updateMessage(message));

  function publish(message: StoredMessage) {
    options.broadcast({ type: "message/upserted", message: toWire(message) });
  }

  function keepTrying(message: StoredMessage, insert: boolean) {
    const earlier = waiting.get(message.id);
    waiting.set(message.id, { message, insert: insert || (earlier?.insert ?? false) });
    if (timer !== null) return;
    timer = setInterval(() => void retry(), RETRY_WRITES_MS);
    timer.unref();
  }

  async function retry() {
    for (const [id, { message, insert }] of [...waiting]) {
      try {
        await write(message, insert);
      } catch {
        return;
      }
      if (waiting.get(id)?.message === message) waiting.delete(id);
      log({ event: "message/written-late", sessionId: message.sessionId, messageId: id });
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
      } catch (error) {
        keepTrying(message, insert);
        throw error;
      } finally {
        publish(message);
      }
    },
    async attempt(event, message, insert) {
      try {
        await write(message, insert);
      } catch (error) {
        log({ event, sessionId: message.sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" });
        keepTrying(message, insert);
      }
    },
    delta(sessionId, messageId, text) {
      options.broadcast({ type: "message/delta", sessionId, messageId, text });
    },
    unsettled: () => waiting.size,
    async close() {
      if (waiting.size > 0) await retry();
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
