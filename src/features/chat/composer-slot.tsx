import { useEffect, useMemo, useRef, type ReactNode } from "react";
import { useSessionStore } from "../../store/react";
import { createElectionSelector, type SlotEntry } from "./slot-election";

export interface ComposerSlotProps {
  entries: readonly SlotEntry[];
  sessionId: string | null;
  /** The normal composer; it stays mounted (hidden) while an entry owns the slot. */
  composer: ReactNode;
}

/** The conversation's one composer slot: the elected entry, else the normal composer. */
export function ComposerSlot({ entries, sessionId, composer }: ComposerSlotProps) {
  const selector = useMemo(() => createElectionSelector(entries, sessionId), [entries, sessionId]);
  const election = useSessionStore(selector);
  const slotRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLDivElement>(null);
  const previous = useRef({ sessionId, takenOver: election !== null });

  useEffect(() => {
    const takenOver = election !== null;
    const returned = previous.current.takenOver && !takenOver && previous.current.sessionId === sessionId;
    previous.current = { sessionId, takenOver };
    if (!returned) return;
    const active = document.activeElement;
    if (active && active !== document.body && !slotRef.current?.contains(active)) return;
    composerRef.current?.querySelector<HTMLElement>("textarea, input")?.focus();
  }, [election, sessionId]);

  const Entry = election?.entry.Component;
  return (
    <div className="composer-slot" ref={slotRef} data-owner={election?.entry.key ?? "composer"}>
      {election && Entry && sessionId !== null && <Entry key={election.entry.key} match={election.match} sessionId={sessionId} />}
      <div className="composer-slot__composer" ref={composerRef} hidden={election !== null}>
        {composer}
      </div>
    </div>
  );
}
