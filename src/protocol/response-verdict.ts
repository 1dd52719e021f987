import { readAnswers } from "./answers";
import { RespondBody, type AnswerItem, type PendingRequest, type Receipt } from "./schemas";

/** A refused response: the receipt the host sends, and the request stays as it was. */
export type RefusedVerdict = { accepted: false; receipt: Extract<Receipt, { accepted: false }> };

/** What a response against the pending table comes to: refused, or the outcome it claims the request with. */
export type ResponseVerdict =
  | RefusedVerdict
  | { accepted: true; rpcId: string; sessionId: string; outcome: "cancelled" }
  | { accepted: true; rpcId: string; sessionId: string; outcome: "answered"; answers: AnswerItem[] };

const SHAPE_DETAIL = 'body must be {"type":"answer","rpcId","sessionId","answers":[...]} or {"type":"cancel","rpcId","sessionId"}';

function refuse(reason: RefusedVerdict["receipt"]["reason"], detail: string): RefusedVerdict {
  return { accepted: false, receipt: { accepted: false, reason, detail } };
}

/**
 * Judges one `POST /api/respond` body against what is pending, in the order of docs/protocol.md
 * (respond-shape, respond-pending, respond-session, answer-rules). Pure: the caller claims an accepted request.
 * The host's pending table and the demo's fake host both answer with it.
 */
export function judgeResponse(body: unknown, pendingOf: (rpcId: string) => PendingRequest | undefined): ResponseVerdict {
  const shape = RespondBody.safeParse(body);
  if (!shape.success) return refuse("bad-response", SHAPE_DETAIL);
  const response = shape.data;
  const pending = pendingOf(response.rpcId);
  if (!pending) return refuse("not-pending", `question ${response.rpcId} is not pending (unknown, already answered, cancelled or aborted)`);
  if (response.sessionId !== pending.sessionId) {
    return refuse("bad-response", `question ${response.rpcId} does not belong to session ${response.sessionId}`);
  }
  if (response.type === "cancel") return { accepted: true, rpcId: response.rpcId, sessionId: pending.sessionId, outcome: "cancelled" };
  const read = readAnswers(pending.questions, response.answers);
  if ("problem" in read) return refuse("bad-response", read.problem);
  return { accepted: true, rpcId: response.rpcId, sessionId: pending.sessionId, outcome: "answered", answers: read.answers };
}

/** The receipt a verdict is sent back as. */
export function receiptOf(verdict: ResponseVerdict): Receipt {
  return verdict.accepted ? { accepted: true } : verdict.receipt;
}
