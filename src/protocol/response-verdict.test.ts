import { describe, expect, it } from "vitest";
import { judgeResponse, receiptOf } from "./response-verdict";
import type { PendingRequest } from "./schemas";

const pending: PendingRequest = {
  rpcId: "rpc-1",
  sessionId: "session-1",
  createdAt: "2026-01-15T09:30:00.000Z",
  questions: [
    { id: "pkg", question: "Which?", options: [{ label: "pnpm" }, { label: "npm" }] },
    { id: "name", question: "Name?" },
  ],
};
const held = (rpcId: string) => (rpcId === pending.rpcId ? pending : undefined);
const answer = {
  type: "answer",
  rpcId: "rpc-1",
  sessionId: "session-1",
  answers: [
    { id: "pkg", selected: ["pnpm"] },
    { id: "name", selected: [], custom: "Parley" },
  ],
};

describe("judgeResponse", () => {
  it("respond-shape: refuses a body of neither shape before looking anything up", () => {
    const looked: string[] = [];
    const verdict = judgeResponse({ type: "answer", rpcId: "rpc-1" }, (rpcId) => (looked.push(rpcId), pending));
    expect(verdict).toEqual({
      accepted: false,
      receipt: {
        accepted: false,
        reason: "bad-response",
        detail: 'body must be {"type":"answer","rpcId","sessionId","answers":[...]} or {"type":"cancel","rpcId","sessionId"}',
      },
    });
    expect(looked).toEqual([]);
  });

  it("respond-pending: answers not-pending for an rpcId nothing holds, whatever else the body says", () => {
    expect(judgeResponse({ ...answer, rpcId: "rpc-9", sessionId: "elsewhere", answers: [] }, held)).toEqual({
      accepted: false,
      receipt: { accepted: false, reason: "not-pending", detail: "question rpc-9 is not pending (unknown, already answered, cancelled or aborted)" },
    });
  });

  it("respond-session: refuses a response naming another session", () => {
    expect(judgeResponse({ type: "cancel", rpcId: "rpc-1", sessionId: "session-2" }, held)).toEqual({
      accepted: false,
      receipt: { accepted: false, reason: "bad-response", detail: "question rpc-1 does not belong to session session-2" },
    });
  });

  it("answer-rules: refuses answers out of question order with checkAnswers' sentence", () => {
    expect(judgeResponse({ ...answer, answers: [answer.answers[1], answer.answers[0]] }, held)).toEqual({
      accepted: false,
      receipt: { accepted: false, reason: "bad-response", detail: 'answers[0]: id "name" does not match question "pkg" at this position' },
    });
  });

  it("accepts a valid answer with its items as typed answers", () => {
    expect(judgeResponse(answer, held)).toEqual({ accepted: true, rpcId: "rpc-1", sessionId: "session-1", outcome: "answered", answers: answer.answers });
  });

  it("accepts a cancel of a pending request without checking answers", () => {
    expect(judgeResponse({ type: "cancel", rpcId: "rpc-1", sessionId: "session-1" }, held)).toEqual({
      accepted: true,
      rpcId: "rpc-1",
      sessionId: "session-1",
      outcome: "cancelled",
    });
  });
});

describe("receiptOf", () => {
  it("sends an accepted verdict as the bare accepted receipt and a refused one as its receipt", () => {
    expect(receiptOf(judgeResponse(answer, held))).toEqual({ accepted: true });
    expect(receiptOf(judgeResponse({ ...answer, rpcId: "rpc-9" }, held))).toEqual({
      accepted: false,
      reason: "not-pending",
      detail: "question rpc-9 is not pending (unknown, already answered, cancelled or aborted)",
    });
  });
});
