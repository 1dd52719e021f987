import { loadChecks } from "../client/load-checks";
import { hasTypedAnswer } from "../features/question/retired-drafts";
import { loadDraft } from "../features/question/draft-storage";
import type { SessionStore } from "../store/session-store";
import type { RetiredRequest } from "../store/state";

const STORAGE_KEY = "parley.retired";

function readStored(storage: Storage): string | null {
  try {
    return storage.getItem(STORAGE_KEY);
  } catch (error) {
    console.warn("could not read the notices of answers not sent", error);
    return null;
  }
}

function writeStored(storage: Storage, retired: readonly RetiredRequest[]): void {
  try {
    if (retired.length === 0) storage.removeItem(STORAGE_KEY);
    else storage.setItem(STORAGE_KEY, JSON.stringify(retired));
  } catch (error) {
    console.warn("could not keep the notices of answers not sent", error);
  }
}

/**
 * Keeps the store's retired requests (the notices of answers this tab did not send) in the tab's storage, so a reload
 * brings each notice back with the answers its draft holds, until it is dismissed or the tab is closed. What was kept
 * is read at once and restored when the checks are in: an entry that fails them, or whose draft holds no answer any
 * more, is dropped with a warning or silently. Returns the unsubscribe.
 */
export function keepRetiredAcrossReloads(store: SessionStore, storage: Storage = sessionStorage): () => void {
  const stored = readStored(storage);
  let stopped = false;
  let written = store.getState().retired;
  const unsubscribe = store.subscribe((state) => {
    if (state.retired === written) return;
    written = state.retired;
    writeStored(storage, Object.values(state.retired).flat());
  });
  if (stored !== null) {
    void loadChecks().then(({ RetiredEntry }) => {
      if (stopped) return;
      let entries: unknown;
      try {
        entries = JSON.parse(stored);
      } catch (error) {
        console.warn("ignoring corrupt notices of answers not sent", error);
        entries = [];
      }
      const restored: RetiredRequest[] = [];
      for (const entry of Array.isArray(entries) ? entries : []) {
        const checked = RetiredEntry.safeParse(entry);
        if (!checked.success) console.warn(`ignoring a malformed notice of answers not sent: ${checked.error.message}`);
        else if (hasTypedAnswer(loadDraft(checked.data.request.rpcId))) restored.push(checked.data);
      }
      if (!Array.isArray(entries)) console.warn("ignoring notices of answers not sent that are not a list");
      // Restored or not, what is written next is what the store holds.
      if (restored.length > 0) store.getState().retireRequests(restored);
      else writeStored(storage, Object.values(store.getState().retired).flat());
    }, (error: unknown) => console.warn("the notices of answers not sent could not be checked, so they stay stored until the next load", error));
  }
  return () => {
    stopped = true;
    unsubscribe();
  };
}
