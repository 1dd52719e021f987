import { useMemo } from "react";
import type { PendingRequest } from "../../protocol/schemas";
import { useSessionStore } from "../../store/react";
import type { SessionData } from "../../store/state";
import { useAttention } from "./use-attention";

const selectPendingBySession = (state: SessionData) => state.pending;

/** Mount once inside the store provider: title counter, favicon dot and desktop notifications. */
export function AttentionWatcher({ onOpenSession }: { onOpenSession: (sessionId: string) => void }) {
  const pending = useSessionStore(selectPendingBySession);
  const requests = useMemo<PendingRequest[]>(
    () => Object.values(pending).flatMap((entries) => entries.map((entry) => entry.request)),
    [pending],
  );
  useAttention({ requests, onOpenSession });
  return null;
}
