import { useEffect, useRef, useState } from "react";
import type { Receipt, RespondRequest } from "../../protocol/schemas";
import { forgetResponding, leftWhileSending, noteResponding } from "./retired-drafts";
import type { PanelStatus } from "./status-line";
import type { SendFocus } from "../../ui/takeover-guard";

/** What the panel is waiting for: nothing, an answer's receipt, or a cancel's. */
export type Busy = null | "answer" | "cancel";

/** Work around a response: `before` runs first (its failure stops the send), `after` once the request is gone. */
export interface SendSteps {
  before?: () => Promise<void>;
  /** When `before` may itself end the request (stopping the turn aborts it), a not-pending receipt is success. */
  goneIsDone?: boolean;
  after?: () => void;
}

/**
 * Sends a response and tracks it. An accepted receipt keeps the panel busy until the parent
 * unmounts it on `question/resolved`; a rejection or a network error frees it again. `focus`
 * keeps focus in the panel while it is busy and gives it back once it is freed (rule send-focus).
 */
export function useRespond(respond: (body: RespondRequest) => Promise<Receipt>, focus?: SendFocus) {
  const [busy, setBusy] = useState<Busy>(null);
  const [status, setStatus] = useState<PanelStatus>(null);
  const focusRef = useRef(focus);
  useEffect(() => {
    focusRef.current = focus;
  });
  // Counts the sends that failed: after the render that freed the controls again, they can take focus back.
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures > 0) focusRef.current?.restore();
  }, [failures]);
  const send = async (body: RespondRequest, steps: SendSteps = {}) => {
    focus?.hold();
    setBusy(body.type);
    setStatus(body.type === "cancel" ? { kind: "cancelling" } : null);
    try {
      noteResponding(body.rpcId);
      try {
        await steps.before?.();
      } catch (error) {
        // A stop that ended the request though its answer was lost: the response still goes, and its receipt settles
        // the drafts (kept in a notice unless the response was taken), so nothing typed is lost unseen.
        if (!leftWhileSending(body.rpcId)) throw error;
      }
      const receipt = await respond(body);
      if (receipt.accepted || (steps.goneIsDone === true && receipt.reason === "not-pending")) {
        steps.after?.();
        setStatus({ kind: "sent" });
        return;
      }
      setStatus({ kind: "rejected", reason: receipt.reason, detail: receipt.detail });
    } catch (error) {
      setStatus({ kind: "error", message: error instanceof Error ? error.message : String(error) });
    }
    forgetResponding(body.rpcId);
    setBusy(null);
    setFailures((count) => count + 1);
  };
  return { busy, status, setStatus, send };
}
