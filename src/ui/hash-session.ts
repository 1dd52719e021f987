import { useSyncExternalStore } from "react";

const PREFIX = "#session=";

/** The link to a session inside the app. */
export function sessionHref(sessionId: string): string {
  return `${PREFIX}${encodeURIComponent(sessionId)}`;
}

/** The session id a location hash names, or null; a hash that does not decode names none. */
export function sessionFromHash(hash: string): string | null {
  if (!hash.startsWith(PREFIX)) return null;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(PREFIX.length));
  } catch {
    return null;
  }
  return id === "" ? null : id;
}

/** This page's readers of the hash, told at once when the page itself moves it. */
const readers = new Set<() => void>();

function subscribe(onChange: () => void): () => void {
  readers.add(onChange);
  window.addEventListener("hashchange", onChange);
  return () => {
    readers.delete(onChange);
    window.removeEventListener("hashchange", onChange);
  };
}

const readSession = () => sessionFromHash(window.location.hash);

/**
 * Opens a session (none: a new chat) by the hash. The page shows it at once: `hashchange` comes in a later task, and
 * what the user types before it must already land in the chat they opened.
 */
export function openSessionHash(sessionId: string | null): void {
  window.location.hash = sessionId === null ? "" : sessionHref(sessionId);
  for (const read of readers) read();
}

/** The open session, kept in the URL hash so a reload or a second tab opens the same one. */
export function useHashSession(): [string | null, (sessionId: string | null) => void] {
  const sessionId = useSyncExternalStore(subscribe, readSession, () => null);
  return [sessionId, openSessionHash];
}
