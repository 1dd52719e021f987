import type { RetireReason } from "../../store/state";
import type { DraftState } from "./draft";
import { deleteDraft, loadDraft } from "./draft-storage";

/** Requests this tab has sent a response for; their leaving is this tab's own doing. */
const responding = new Set<string>();

/** The panel is sending a response for this request. */
export function noteResponding(rpcId: string): void {
  responding.add(rpcId);
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

/**
 * Decides what happens to a request's saved draft once the request left the store: kept (true) when
 * it left for a reason this tab did not cause and holds answers, so a notice can show them; else deleted.
 */
export function retireDraft(rpcId: string, reason: RetireReason | null): boolean {
  const ownResponse = responding.delete(rpcId);
  if (reason !== null && !ownResponse && hasTypedAnswer(loadDraft(rpcId))) return true;
  deleteDraft(rpcId);
  return false;
}
