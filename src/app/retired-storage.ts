import { loadChecks } from "../client/load-checks";
import { hasTypedAnswer } from "../features/question/retired-drafts";
import { loadDraft } from "../features/question/draft-storage";
import type { SessionStore } from "../store/session-store";
import type { RetiredRequest } from "../store/state";

const STORAGE_KEY = "parley.retired";
/** The host the kept notices were last held under, so a reload can tell that host's restart from a stop. */
const HOST_KEY = "parley.retired.host";

/** What a previous load kept, as read: a list of entries not yet checked; corrupt or not a list, nothing (with a warning). */
function readStored(storage: Storage): unknown[] {
  let raw: string | null;
  try {
    raw = storage.getItem(STORAGE_KEY);
  } catch (error) {
    console.warn("could not read the notices of answers not sent", error);
    return [];
  }
  if (raw === null) return [];
  let entries: unknown;
  try {
    entries = JSON.parse(raw);
  } catch (error) {
    console.warn("ignoring corrupt notices of answers not sent", error);
    return [];
  }
  if (Array.isArray(entries)) return entries;
  console.warn("ignoring notices of answers not sent that are not a list");
  return [];
}

function readHost(storage: Storage): string | null {
  try {
    return storage.getItem(HOST_KEY);
  } catch {
    // readStored has warned about the same storage already.
    return null;
  }
}

function writeStored(storage: Storage, retired: readonly unknown[], hostId: string | null): void {
  try {
    if (retired.length === 0) {
      storage.removeItem(STORAGE_KEY);
      storage.removeItem(HOST_KEY);
    } else {
      storage.setItem(STORAGE_KEY, JSON.stringify(retired));
      if (hostId === null) storage.removeItem(HOST_KEY);
      else storage.setItem(HOST_KEY, hostId);
    }
  } catch (error) {
    console.warn("could not keep the notices of answers not sent", error);
  }
}

/**
 * Keeps the store's retired requests (the notices of answers this tab did not send) in the tab's storage, so a reload
 * brings each notice back with the answers its draft holds, until it is dismissed or the tab is closed. The host they
 * were held under is kept beside them: a notice of questions that stopped waiting, restored before a different host
 * says hello, then reads that the host restarted, as it would have without the reload. What was kept
 * is read at once and restored when the checks are in: an entry that fails them is dropped with a warning, one whose
 * draft holds no answer any more silently. Until then, or for good if the checks cannot load, every write keeps what
 * was read beside what the store holds, so the next load can try again. Returns the unsubscribe.
 */
export function keepRetiredAcrossReloads(store: SessionStore, storage: Storage = sessionStorage, checks: typeof loadChecks = loadChecks): () => void {
  let unrestored = readStored(storage);
  const keptHost = readHost(storage);
  let stopped = false;
  let written = store.getState().retired;
  const write = () => writeStored(storage, [...Object.values(store.getState().retired).flat(), ...unrestored], store.getState().hostId ?? keptHost);
  const unsubscribe = store.subscribe((state) => {
    if (state.retired === written) return;
    written = state.retired;
    write();
  });
  // Nothing to restore: whatever is stored (an empty, corrupt or foreign value) goes, for what the store holds already (a
  // request retired before this module was loaded).
  if (unrestored.length === 0) write();
  else {
    void checks().then(({ RetiredEntry }) => {
      if (stopped) return;
      const restored: RetiredRequest[] = [];
      for (const entry of unrestored) {
        const checked = RetiredEntry.safeParse(entry);
        if (!checked.success) console.warn(`ignoring a malformed notice of answers not sent: ${checked.error.message}`);
        else if (hasTypedAnswer(loadDraft(checked.data.request.rpcId))) restored.push(checked.data);
      }
      unrestored = [];
      // Restored or not, what is written next is what the store holds.
      if (restored.length > 0) store.getState().restoreRetired(restored, keptHost);
      else write();
    }, (error: unknown) => console.warn("the notices of answers not sent could not be checked; they stay stored for the next load", error));
  }
  return () => {
    stopped = true;
    unsubscribe();
  };
}
