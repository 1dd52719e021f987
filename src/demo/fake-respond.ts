import { judgeResponse, receiptOf } from "../protocol/response-verdict";
import type { Receipt, RespondRequest } from "../protocol/schemas";
import type { FakeLedger } from "./fake-ledger";
import type { DemoReply } from "./stories";

/** How long the `slow` reply keeps a response in flight. */
export const SLOW_REPLY_MS = 3000;

/** The message Chromium gives a `fetch` that never reached the server. */
export const NETWORK_ERROR_MESSAGE = "Failed to fetch";

/** What the fake host did with one `POST /api/respond`: a receipt, or a failed request. */
export type FakeOutcome = { kind: "receipt"; receipt: Receipt } | { kind: "network-error"; message: string };

/** Told about every response the fake host receives, before and after it answers. */
export interface RespondObserver {
  sent(id: string, body: RespondRequest): void;
  settled(id: string, outcome: FakeOutcome): void;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The fake host's `POST /api/respond`: judged by `judgeResponse`, as the pending table judges it, under the
 * reply the Host reply control names, which can force a slow answer, a failed request or one of the host's refusals.
 */
export function createFakeRespond(ledger: FakeLedger, reply: () => DemoReply, observer?: RespondObserver): (body: RespondRequest) => Promise<Receipt> {
  return async (body) => {
    // Unique across runs and frames: the page's log matches an answer's outcome to its entry by this id.
    const id = `respond-${crypto.randomUUID()}`;
    observer?.sent(id, body);
    const current = reply();
    if (current === "slow") await delay(SLOW_REPLY_MS);
    if (current === "network-error") {
      observer?.settled(id, { kind: "network-error", message: NETWORK_ERROR_MESSAGE });
      throw new TypeError(NETWORK_ERROR_MESSAGE);
    }
    // The forced replies reach the host's own refusals: the question already settled, or held under another session.
    const pendingOf = (rpcId: string) => {
      const request = ledger.pending.get(rpcId);
      if (current === "not-pending" || !request) return undefined;
      return current === "bad-response" ? { ...request, sessionId: `${request.sessionId}-elsewhere` } : request;
    };
    const verdict = judgeResponse(body, pendingOf);
    if (verdict.accepted) ledger.claim(verdict);
    // Taken, and the reply lost on its way back (a connection cut, a proxy's error page): the tab hears only the frame.
    if (current === "lost-reply") {
      observer?.settled(id, { kind: "network-error", message: NETWORK_ERROR_MESSAGE });
      throw new TypeError(NETWORK_ERROR_MESSAGE);
    }
    const receipt = receiptOf(verdict);
    observer?.settled(id, { kind: "receipt", receipt });
    return receipt;
  };
}
