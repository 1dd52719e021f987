import type { RetireReason } from "../../store/state";
import type { DraftState } from "./draft";
import { deleteDraft, loadDraft } from "./draft-storage";

/**
 * Requests this tab has sent a response for: in flight; left while it was in flight, with why (its receipt decides what
 * the drafts become); or taken by the host before the request's own frame came (whose leaving is then this tab's doing).
 */
const responding = new Map<string, { state: "in-flight" } | { state: "left"; reason: RetireReason | null } | { state: "taken" }>();

/** The panel is sending a response for this request. */
export function noteResponding(rpcId: string): void {
  responding.set(rpcId, { state: "in-flight" });
}

/** Whether the request left while this tab was responding to it (a stop the response made first ended it). */
export function leftWhileSending(rpcId: string): boolean {
  return responding.get(rpcId)?.state === "left";
}

/** The response was refused or failed: the request is still the user's to answer. */
export function forgetResponding(rpcId: string): void {
  responding.delete(rpcId);
}

/** Whether a draft holds something the user chose or typed (a bare skip is not worth keeping). */
export function hasTypedAnswer(state: DraftState | null): boolean {
  if (state === null) return false;
  for (const draft of state.drafts.values()) if (draft.selected.length > 0 || draft.custom.trim() !== "") return true;
  return false;
}

/** The draft, kept when it holds answers and the request left for a reason (true), else deleted. */
function keepForNotice(rpcId: string, reason: RetireReason | null): boolean {
  if (reason !== null && hasTypedAnswer(loadDraft(rpcId))) return true;
  deleteDraft(rpcId);
  return false;
}

/**
 * Decides what happens to a request's saved draft once the request left the store: kept (true) when
 * it left for a reason this tab did not cause and holds answers, so a notice can show them; else deleted.
 * While this tab's response is in flight the draft is kept, with no notice yet ("after-receipt"): whether the
 * leaving was this tab's doing is known only from the receipt (settleResponse).
 */
export function retireDraft(rpcId: string, reason: RetireReason | null): boolean | "after-receipt" {
  const response = responding.get(rpcId);
  if (response?.state === "in-flight") {
    responding.set(rpcId, { state: "left", reason });
    return "after-receipt";
  }
  responding.delete(rpcId);
  if (response?.state === "taken") {
    deleteDraft(rpcId);
    return false;
  }
  return keepForNotice(rpcId, reason);
}

/**
 * The receipt of this tab's response came (`done`: it was taken, or a cancel found the request gone) or the request
 * failed. A taken response deletes the draft. One that was not taken, for a request that left meanwhile (another
 * tab's answer came first, the turn stopped, the host shut down), keeps the draft when it holds answers: the reason
 * is returned, so a notice shows them. Otherwise null.
 */
export function settleResponse(rpcId: string, done: boolean): RetireReason | null {
  const response = responding.get(rpcId);
  responding.delete(rpcId);
  if (done) {
    deleteDraft(rpcId);
    // Until the request's own frame comes, its leaving is known to be this tab's doing.
    if (response?.state === "in-flight") responding.set(rpcId, { state: "taken" });
    return null;
  }
  return response?.state === "left" && keepForNotice(rpcId, response.reason) ? response.reason : null;
}
