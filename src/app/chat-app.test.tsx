import { describe, expect, it } from "vitest";
import type { PendingRequest } from "../protocol/schemas";
import { createSessionStore } from "../store/session-store";
import { applyFrameAndForgetDrafts } from "./chat-app";

function request(rpcId: string): PendingRequest {
  return { rpcId, sessionId: "s-1", questions: [{ id: "q", question: "Why?" }], createdAt: "2026-11-30T10:00:00.000Z" };
}

describe("applyFrameAndForgetDrafts", () => {
  it("forgets the draft of a request that question/resolved removed, and only that one", () => {
    const store = createSessionStore();
    const forgotten: string[] = [];
    const forget = (rpcId: string) => forgotten.push(rpcId);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r1") }, forget);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r2") }, forget);
    applyFrameAndForgetDrafts(store, { type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "answered" }, forget);
    expect(forgotten).toEqual(["r1"]);
    expect(store.getState().pending).toEqual({ "s-1": [{ request: request("r2"), confirmed: true }] });
  });

  it("forgets drafts of requests a synced drops, and keeps them across a hello from the same host", () => {
    const store = createSessionStore();
    const forgotten: string[] = [];
    const forget = (rpcId: string) => forgotten.push(rpcId);
    for (const frame of [
      { type: "hello", protocol: 1, hostId: "h" },
      { type: "question/requested", ...request("r1") },
      { type: "question/requested", ...request("r2") },
      { type: "synced" },
      { type: "hello", protocol: 1, hostId: "h" },
      { type: "question/requested", ...request("r2") },
    ] as const) {
      applyFrameAndForgetDrafts(store, frame, forget);
    }
    expect(forgotten).toEqual([]);
    applyFrameAndForgetDrafts(store, { type: "synced" }, forget);
    expect(forgotten).toEqual(["r1"]);
  });

  it("forgets every draft when a new host says hello", () => {
    const store = createSessionStore();
    const forgotten: string[] = [];
    const forget = (rpcId: string) => forgotten.push(rpcId);
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 1, hostId: "h1" }, forget);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r1") }, forget);
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 1, hostId: "h2" }, forget);
    expect(forgotten).toEqual(["r1"]);
  });
});
