import type { Ref } from "react";
import { useStore } from "zustand";
import { useCopy } from "../i18n/i18n";
import type { SessionStore } from "../store/session-store";
import type { SessionData } from "../store/state";
import { Button } from "../ui/button";
import { appCopy } from "./copy";

/** How many chats other than the open one have a question waiting. */
export function waitingElsewhere(state: Pick<SessionData, "pending">, openId: string | null): number {
  let count = 0;
  for (const [sessionId, entries] of Object.entries(state.pending)) if (sessionId !== openId && entries.length > 0) count += 1;
  return count;
}

interface DrawerToggleProps {
  ref: Ref<HTMLButtonElement>;
  store: SessionStore;
  openId: string | null;
  open: boolean;
  controls: string;
  onToggle(): void;
}

/** The phone's Sessions button, with the count of other chats that wait for an answer (their rows are in the drawer it opens). */
export function DrawerToggle({ ref, store, openId, open, controls, onToggle }: DrawerToggleProps) {
  const t = useCopy(appCopy);
  const waiting = useStore(store, (state) => waitingElsewhere(state, openId));
  // The name repeats the visible label, then says what the count is (the count itself is not read twice).
  return (
    <Button ref={ref} className="shell__drawer-toggle" variant="ghost" aria-label={waiting > 0 ? t("sessionsWaiting", { count: waiting }) : undefined} aria-expanded={open} aria-controls={controls} onClick={onToggle}>
      {t("sessionsToggle")}
      {waiting > 0 && (
        <span className="shell__drawer-count" aria-hidden="true">
          {waiting}
        </span>
      )}
    </Button>
  );
}
