import { StorageError, type StorageCode } from "../../host/storage-error";
import type { Store } from "../../host/store";

const WRITES = ["insertSession", "patchSession", "deleteSession", "insertMessage", "updateMessage"] as const;
type Write = (typeof WRITES)[number];

const MESSAGES: Record<StorageCode, string> = {
  STORAGE_FULL: "the disk holding the data dir (injected) is full: free some space; what was not saved is lost",
  STORAGE_READONLY: "the data dir (injected) cannot be written: check its permissions and that its disk is mounted read-write",
  STORAGE_BUSY: "the database in the data dir (injected) is locked by another process: stop it, then retry",
  STORAGE_FAILED: "the database in the data dir (injected) failed: injected",
};

/** A real store whose transcript writes fail, as the store would report it, from the `failFrom`-th write on while `failing` is set. */
export interface FaultyStore {
  store: Store;
  /** Transcript writes made so far, failed ones included. */
  readonly writes: Write[];
  /** How many writes failed. */
  readonly failures: number;
  /** Starts failing every write from write number `index` (0-based, counted from now on) with `code`. */
  failFrom(index: number, code: StorageCode): void;
  /** Writes work again (the disk was freed). */
  heal(): void;
}

export function createFaultyStore(inner: Store): FaultyStore {
  const writes: Write[] = [];
  let failing: { from: number; code: StorageCode } | null = null;
  let trouble: StorageError | null = null;
  let failures = 0;
  const store: Store = Object.create(inner) as Store;
  Object.defineProperty(store, "trouble", { get: () => trouble ?? inner.trouble });
  for (const name of WRITES) {
    const original = inner[name].bind(inner) as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(store, name, {
      value: async (...args: unknown[]) => {
        writes.push(name);
        if (failing && writes.length - 1 >= failing.from) {
          failures++;
          trouble = new StorageError(failing.code, MESSAGES[failing.code], null);
          throw trouble;
        }
        const result = await original(...args);
        trouble = null;
        return result;
      },
    });
  }
  return {
    store,
    writes,
    get failures() {
      return failures;
    },
    failFrom(index, code) {
      failing = { from: writes.length + index, code };
    },
    heal() {
      failing = null;
    },
  };
}
