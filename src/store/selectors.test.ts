import { describe, expect, it } from "vitest";
import { planReviewQuestions } from "../protocol/plan-review";
import type { DownFrame, PendingRequest } from "../protocol/schemas";
import { createSessionStore } from "./session-store";
import { pendingRpcIds, selectPendingRequests, selectSessionBadge, selectTranscript } from "./selectors";

function request(rpcId: string, sessionId = "s-1"): PendingRequest {
  return { rpcId, sessionId, questions: [{ id: "q", question: "Which?", options: [{ label: "A" }] }], createdAt: "2026-11-30T10:00:00.000Z" };
}

function planReview(rpcId: string, sessionId = "s-1"): PendingRequest {
  return {
    rpcId,
    sessionId,
    questions: planReviewQuestions("1. Do it"),
    createdAt: "2026-11-30T10:00:00.000Z",
  };
}

const requested = (pending: PendingRequest): DownFrame => ({ type: "question/requested", ...pending });

describe("selectors", () => {
  it("reads nothing inherited for a session id such as constructor or __proto__", () => {
    const store = createSessionStore();
    for (const sessionId of ["constructor", "__proto__", "toString"]) {
      const state = store.getState();
      expect(selectTranscript(sessionId)(state)).toEqual([]);
      expect(selectPendingRequests(sessionId)(state)).toEqual([]);
      expect(selectSessionBadge(sessionId)(state)).toBeNull();
    }
  });

  it("return the same selector function for the same session id", () => {
    expect(selectPendingRequests("s-1")).toBe(selectPendingRequests("s-1"));
    expect(selectTranscript("s-1")).toBe(selectTranscript("s-1"));
  });

  it("return the same pending array until a request of that session arrives or leaves", () => {
    const store = createSessionStore();
    store.getState().applyFrame(requested(request("r1")));
    const first = selectPendingRequests("s-1")(store.getState());
    expect(first).toEqual([request("r1")]);
    store.getState().applyFrame({ type: "message/delta", sessionId: "s-1", messageId: "m", text: "x" });
    store.getState().applyFrame(requested(request("r2", "s-2")));
    expect(selectPendingRequests("s-1")(store.getState())).toBe(first);
    store.getState().applyFrame(requested(request("r3")));
    expect(selectPendingRequests("s-1")(store.getState())).toEqual([request("r1"), request("r3")]);
  });

  it("return one shared empty array for a session with nothing pending or no transcript", () => {
    const store = createSessionStore();
    expect(selectPendingRequests("none")(store.getState())).toBe(selectPendingRequests("other")(store.getState()));
    expect(selectTranscript("none")(store.getState())).toEqual([]);
  });

  it("badge a session by its first pending request: question, plan review, or nothing", () => {
    const store = createSessionStore();
    expect(selectSessionBadge("s-1")(store.getState())).toBeNull();
    store.getState().applyFrame(requested(planReview("p1")));
    expect(selectSessionBadge("s-1")(store.getState())).toBe("plan-review");
    store.getState().applyFrame(requested(request("r1")));
    store.getState().applyFrame({ type: "question/resolved", rpcId: "p1", sessionId: "s-1", outcome: "answered" });
    expect(selectSessionBadge("s-1")(store.getState())).toBe("question");
  });

  it("badges a plan-review intent without a plan as a plain question, as the panel shows it", () => {
    const store = createSessionStore();
    const withoutPlan = planReview("p2");
    withoutPlan.questions = [{ ...withoutPlan.questions[0]!, detail: undefined }, withoutPlan.questions[1]!];
    store.getState().applyFrame(requested(withoutPlan));
    expect(selectSessionBadge("s-1")(store.getState())).toBe("question");
  });

  it("list every pending rpcId across sessions", () => {
    const store = createSessionStore();
    store.getState().applyFrame(requested(request("r1")));
    store.getState().applyFrame(requested(request("r2", "s-2")));
    expect(pendingRpcIds(store.getState())).toEqual(new Set(["r1", "r2"]));
  });
});
