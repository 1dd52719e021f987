import { describe, expect, it } from "vitest";
import type { PendingRequest } from "../protocol/schemas";
import { createSessionStore } from "../store/session-store";
import { applyFrameAndForgetDrafts, retireReasonOf } from "./chat-app";

function request(rpcId: string): PendingRequest {
  return { rpcId, sessionId: "s-1", questions: [{ id: "q", question: "Why?" }], createdAt: "2026-11-30T10:00:00.000Z" };
}

describe("applyFrameAndForgetDrafts", () => {
  it("forgets the draft of a request that question/resolved removed, and only that one", () => {
    const store = createSessionStore();
    const forgotten: string[] = [];
    const forget = (rpcId: string) => {
      forgotten.push(rpcId);
      return false;
    };
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r1") }, forget);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r2") }, forget);
    applyFrameAndForgetDrafts(store, { type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "answered" }, forget);
    expect(forgotten).toEqual(["r1"]);
    expect(store.getState().pending).toEqual({ "s-1": [{ request: request("r2"), confirmed: true }] });
  });

  it("forgets drafts of requests a synced drops, and keeps them across a hello from the same host", () => {
    const store = createSessionStore();
    const forgotten: string[] = [];
    const forget = (rpcId: string) => {
      forgotten.push(rpcId);
      return false;
    };
    for (const frame of [
      { type: "hello", protocol: 2, hostId: "h" },
      { type: "question/requested", ...request("r1") },
      { type: "question/requested", ...request("r2") },
      { type: "synced" },
      { type: "hello", protocol: 2, hostId: "h" },
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
    const forget = (rpcId: string) => {
      forgotten.push(rpcId);
      return false;
    };
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 2, hostId: "h1" }, forget);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r1") }, forget);
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 2, hostId: "h2" }, forget);
    expect(forgotten).toEqual(["r1"]);
  });

  it("retires a removed request whose drafts were kept, with the reason its frame gives", () => {
    const store = createSessionStore();
    const asked: [string, string | null][] = [];
    const keep = (rpcId: string, reason: string | null) => {
      asked.push([rpcId, reason]);
      return true;
    };
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 2, hostId: "h1" }, keep);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r1") }, keep);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r2") }, keep);
    applyFrameAndForgetDrafts(store, { type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "answered" }, keep);
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 2, hostId: "h2" }, keep);
    expect(asked).toEqual([
      ["r1", "answered-elsewhere"],
      ["r2", "host-restarted"],
    ]);
    expect(store.getState().retired).toEqual({
      "s-1": [
        { request: request("r1"), reason: "answered-elsewhere" },
        { request: request("r2"), reason: "host-restarted" },
      ],
    });
    store.getState().dismissRetired("r1");
    expect(store.getState().retired).toEqual({ "s-1": [{ request: request("r2"), reason: "host-restarted" }] });
  });

  it("retires nothing for a request removed with its session", () => {
    const store = createSessionStore();
    const keep = () => true;
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r1") }, keep);
    applyFrameAndForgetDrafts(store, { type: "session/deleted", sessionId: "s-1" }, keep);
    expect(store.getState().retired).toEqual({});
  });

  it("blames a host restart for a request that stopped waiting just before a new host said hello", () => {
    const store = createSessionStore();
    const keep = () => true;
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 2, hostId: "h1" }, keep);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r1") }, keep);
    applyFrameAndForgetDrafts(store, { type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "aborted" }, keep);
    expect(store.getState().retired).toEqual({ "s-1": [{ request: request("r1"), reason: "stopped" }] });
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 2, hostId: "h1" }, keep);
    expect(store.getState().retired).toEqual({ "s-1": [{ request: request("r1"), reason: "stopped" }] });
    applyFrameAndForgetDrafts(store, { type: "hello", protocol: 2, hostId: "h2" }, keep);
    expect(store.getState().retired).toEqual({ "s-1": [{ request: request("r1"), reason: "host-restarted" }] });
  });
});

describe("retireReasonOf", () => {
  it("names why each kind of frame removed a request", () => {
    expect(retireReasonOf({ type: "question/resolved", rpcId: "r", sessionId: "s", outcome: "answered" })).toBe("answered-elsewhere");
    expect(retireReasonOf({ type: "question/resolved", rpcId: "r", sessionId: "s", outcome: "cancelled" })).toBe("dismissed-elsewhere");
    expect(retireReasonOf({ type: "question/resolved", rpcId: "r", sessionId: "s", outcome: "aborted" })).toBe("stopped");
    expect(retireReasonOf({ type: "synced" })).toBe("resolved-away");
    expect(retireReasonOf({ type: "hello", protocol: 2, hostId: "h" })).toBe("host-restarted");
    expect(retireReasonOf({ type: "session/deleted", sessionId: "s" })).toBeNull();
  });
});
