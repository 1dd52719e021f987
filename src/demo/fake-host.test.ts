import { describe, expect, it } from "vitest";
import type { PendingRequest, RespondRequest } from "../protocol/schemas";
import { fakeOutcome } from "./fake-host";

const pending: PendingRequest = {
  rpcId: "rpc-1",
  sessionId: "session-1",
  createdAt: "2026-01-15T09:30:00.000Z",
  questions: [
    { id: "pkg", question: "Which?", options: [{ label: "pnpm" }, { label: "npm" }] },
    { id: "name", question: "Name?" },
  ],
};

const answer: RespondRequest = {
  type: "answer",
  rpcId: "rpc-1",
  sessionId: "session-1",
  answers: [
    { id: "pkg", selected: ["pnpm"] },
    { id: "name", selected: [], custom: "Parley" },
  ],
};

describe("fakeOutcome", () => {
  it("accepts a valid answer when set to accept", () => {
    expect(fakeOutcome("accept", pending, answer)).toEqual({ kind: "receipt", receipt: { accepted: true } });
  });

  it("accepts a valid cancel when set to the slow reply", () => {
    expect(fakeOutcome("slow", pending, { type: "cancel", rpcId: "rpc-1", sessionId: "session-1" })).toEqual({
      kind: "receipt",
      receipt: { accepted: true },
    });
  });

  it("rejects an answer that breaks a protocol rule even when set to accept", () => {
    const wrongOrder: RespondRequest = { ...answer, answers: [answer.answers[1]!, answer.answers[0]!] };
    expect(fakeOutcome("accept", pending, wrongOrder)).toEqual({
      kind: "receipt",
      receipt: { accepted: false, reason: "bad-response", detail: 'answers[0]: id "name" does not match question "pkg" at this position' },
    });
  });

  it("answers not-pending once the request has been resolved", () => {
    expect(fakeOutcome("accept", undefined, answer)).toEqual({
      kind: "receipt",
      receipt: { accepted: false, reason: "not-pending", detail: 'no pending question has rpcId "rpc-1"' },
    });
  });

  it("answers not-pending when set to not-pending", () => {
    expect(fakeOutcome("not-pending", pending, answer)).toEqual({
      kind: "receipt",
      receipt: { accepted: false, reason: "not-pending", detail: 'no pending question has rpcId "rpc-1"' },
    });
  });

  it("answers bad-response for a valid answer when set to bad-response", () => {
    expect(fakeOutcome("bad-response", pending, answer)).toEqual({
      kind: "receipt",
      receipt: { accepted: false, reason: "bad-response", detail: "the demo host is set to reject every response" },
    });
  });

  it("answers bad-response for a response from another session", () => {
    expect(fakeOutcome("accept", pending, { ...answer, sessionId: "session-2" })).toEqual({
      kind: "receipt",
      receipt: { accepted: false, reason: "bad-response", detail: 'rpcId "rpc-1" belongs to another session' },
    });
  });

  it("fails the request like fetch does when set to network error", () => {
    expect(fakeOutcome("network-error", pending, answer)).toEqual({ kind: "network-error", message: "Failed to fetch" });
  });
});
