import { useEffect, useState } from "react";
import type { PendingRequest } from "../../protocol/schemas";
import { createDraftState, withDefaults, type DraftState } from "./draft";
import { flushDrafts, loadDraft, saveDraftSoon } from "./draft-storage";

function initialState(request: PendingRequest): DraftState {
  // Defaults pre-fill only questions with no draft yet: what the user drafted wins (rule question-defaults).
  const saved = withDefaults(loadDraft(request.rpcId) ?? createDraftState(), request.questions);
  // A batch of two or more has a review step after its last question, at index questions.length.
  const last = request.questions.length > 1 ? request.questions.length : 0;
  return { ...saved, index: Math.min(saved.index, last) };
}

/** The request's draft: the saved one (or its defaults) on mount, saved again soon after each change and flushed when the panel goes. */
export function usePanelDraft(request: PendingRequest) {
  const { rpcId } = request;
  const [state, setState] = useState(() => initialState(request));
  useEffect(() => saveDraftSoon(rpcId, state), [rpcId, state]);
  useEffect(() => flushDrafts, [rpcId]);
  return [state, setState] as const;
}
