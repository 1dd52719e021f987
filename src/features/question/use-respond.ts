import { useState } from "react";
import type { Receipt, RespondRequest } from "../../protocol/schemas";
import type { PanelStatus } from "./status-line";

/** What the panel is waiting for: nothing, an answer's receipt, or a cancel's. */
export type Busy = null | "answer" | "cancel";

/**
 * Sends a response and tracks it. An accepted receipt keeps the panel busy until the parent
 * unmounts it on `question/resolved`; a rejection or a network error frees it again.
 */
export function useRespond(respond: (body: RespondRequest) => Promise<Receipt>) {
  const [busy, setBusy] = useState<Busy>(null);
  const [status, setStatus] = useState<PanelStatus>(null);
  const send = async (body: RespondRequest) => {
    setBusy(body.type);
    setStatus(body.type === "cancel" ? { kind: "cancelling" } : null);
    try {
      const receipt = await respond(body);
      if (receipt.accepted) {
        setStatus({ kind: "sent" });
        return;
      }
      setStatus({ kind: "rejected", reason: receipt.reason, detail: receipt.detail });
    } catch (error) {
      setStatus({ kind: "error", message: error instanceof Error ? error.message : String(error) });
    }
    setBusy(null);
  };
  return { busy, status, setStatus, send };
}
