import { useState } from "react";
import type { AnswerItem, PendingRequest, Receipt, RespondRequest } from "../../protocol/schemas";
import { hasAnyDraft, type DraftState } from "./draft";
import type { SendFocus } from "../../ui/takeover-guard";
import { useRespond } from "./use-respond";

/** Chat about it stops the session's turn first, so the agent does not carry on alone, then hands the note to the composer. */
export interface PlanChat {
  /** POST /api/sessions/:id/abort; rejects on failure, which leaves the card as it was. */
  stopTurn: (sessionId: string) => Promise<void>;
  /** Puts the typed note into the session's composer. */
  moveToComposer: (sessionId: string, text: string) => void;
}

interface PanelResponseOptions {
  request: PendingRequest;
  state: DraftState;
  respond: (body: RespondRequest) => Promise<Receipt>;
  planChat: PlanChat | undefined;
  /** Puts focus back where the user answers (the step's control, else its heading) when they keep answering. */
  focusPanel: () => void;
  /** Keeps focus in the panel while a response is sent (rule send-focus). */
  sendFocus: SendFocus;
}

/**
 * The ways the panel ends its request: an answer, a cancel, Chat about it on a plan review, and
 * Dismiss, which asks first (`confirming`) when it would throw a draft away.
 */
export function usePanelResponse({ request, state, respond, planChat, focusPanel, sendFocus }: PanelResponseOptions) {
  const { rpcId, sessionId, questions } = request;
  const { busy, status, setStatus, send: sendResponse } = useRespond(respond, sendFocus);
  const [confirming, setConfirming] = useState(false);

  const send = (body: RespondRequest) => {
    setConfirming(false);
    void sendResponse(body);
  };
  const answer = (answers: AnswerItem[]) => send({ type: "answer", rpcId, sessionId, answers });
  const cancel = () => send({ type: "cancel", rpcId, sessionId });
  const chatAboutIt = (note: string) => {
    if (!planChat) {
      cancel();
      return;
    }
    void sendResponse(
      { type: "cancel", rpcId, sessionId },
      {
        before: () => planChat.stopTurn(sessionId),
        goneIsDone: true,
        after: () => {
          if (note.trim() !== "") planChat.moveToComposer(sessionId, note);
        },
      },
    );
  };
  const dismiss = () => (hasAnyDraft(questions, state) ? setConfirming(true) : cancel());
  const keepAnswering = () => {
    setConfirming(false);
    focusPanel();
  };

  return { busy, status, setStatus, confirming, answer, cancel, chatAboutIt, dismiss, keepAnswering };
}
