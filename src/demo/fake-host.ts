import { checkAnswers } from "../protocol/answers";
import type { PendingRequest, Receipt, RespondRequest } from "../protocol/schemas";
import type { DemoReply } from "./stories";

/** How long the `slow` reply keeps a response in flight. */
export const SLOW_REPLY_MS = 3000;

/** What the fake host does with one `POST /api/respond`: a receipt, or a failed request. */
export type FakeOutcome = { kind: "receipt"; receipt: Receipt } | { kind: "network-error"; message: string };

/** The message Chromium gives a `fetch` that never reached the server. */
export const NETWORK_ERROR_MESSAGE = "Failed to fetch";

/**
 * Answers a response the way the real host would (docs/protocol.md, respond-*), unless the
 * chosen reply forces a failure. `pending` is the request while it is still pending, else undefined.
 */
export function fakeOutcome(reply: DemoReply, pending: PendingRequest | undefined, body: RespondRequest): FakeOutcome {
  if (reply === "network-error") return { kind: "network-error", message: NETWORK_ERROR_MESSAGE };
  if (reply === "not-pending" || !pending || pending.rpcId !== body.rpcId) {
    return { kind: "receipt", receipt: { accepted: false, reason: "not-pending", detail: `no pending question has rpcId "${body.rpcId}"` } };
  }
  if (body.sessionId !== pending.sessionId) {
    return {
      kind: "receipt",
      receipt: { accepted: false, reason: "bad-response", detail: `rpcId "${body.rpcId}" belongs to another session` },
    };
  }
  if (reply === "bad-response") {
    return { kind: "receipt", receipt: { accepted: false, reason: "bad-response", detail: "the demo host is set to reject every response" } };
  }
  if (body.type === "answer") {
    const problem = checkAnswers(pending.questions, body.answers);
    if (problem) return { kind: "receipt", receipt: { accepted: false, reason: "bad-response", detail: problem } };
  }
  return { kind: "receipt", receipt: { accepted: true } };
}
