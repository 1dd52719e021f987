import { createContext, useContext, type ReactNode } from "react";
import { useStore } from "zustand";
import type { SessionData } from "./state";
import type { SessionStoreState, SessionStore } from "./session-store";

const SessionStoreContext = createContext<SessionStore | null>(null);

/** Makes a store available to `useSessionStore`. */
export function SessionStoreProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  return <SessionStoreContext value={store}>{children}</SessionStoreContext>;
}

/** The provided store itself, for actions and non-rendering reads. */
export function useSessionStoreApi(): SessionStore {
  const store = useContext(SessionStoreContext);
  if (!store) throw new Error("useSessionStore needs a SessionStoreProvider above it");
  return store;
}

/** Subscribes to one slice; the selector must return a stable reference (use the named selectors). */
export function useSessionStore<Selected>(selector: (state: SessionData) => Selected): Selected {
  return useStore(useSessionStoreApi(), selector as (state: SessionStoreState) => Selected);
}
