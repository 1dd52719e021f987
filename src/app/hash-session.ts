import { useCallback, useSyncExternalStore } from "react";

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

function subscribe(onChange: () => void): () => void {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
}

const readSession = () => sessionFromHash(window.location.hash);

/** The open session, kept in the URL hash so a reload or a second tab opens the same one. */
export function useHashSession(): [string | null, (sessionId: string | null) => void] {
  const sessionId = useSyncExternalStore(subscribe, readSession, () => null);
  const navigate = useCallback((next: string | null) => {
    window.location.hash = next === null ? "" : sessionHref(next);
  }, []);
  return [sessionId, navigate];
}
