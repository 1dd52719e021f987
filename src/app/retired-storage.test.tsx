import { afterEach, describe, expect, it, vi } from "vitest";
import { loadChecks } from "../client/load-checks";
import { saveDraft } from "../features/question/draft-storage";
import type { PendingRequest } from "../protocol/schemas";
import { createSessionStore } from "../store/session-store";
import type { RetiredRequest } from "../store/state";
import { keepRetiredAcrossReloads } from "./retired-storage";

const KEY = "parley.retired";

function requestOf(rpcId: string, sessionId = "s-1"): PendingRequest {
  return {
    rpcId,
    sessionId,
    createdAt: "2026-12-05T10:00:00.000Z",
    questions: [{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm" }, { label: "npm" }] }],
    origin: { kind: "mcp-client", name: "Evil\u202E agent" },
  };
}

function draftWith(selected: string[]) {
  return { drafts: new Map([["pkg", { selected, custom: "", skipped: selected.length === 0 }]]), index: 0, collapsed: false };
}

const answered = (rpcId: string, sessionId?: string): RetiredRequest => ({ request: requestOf(rpcId, sessionId), reason: "answered-elsewhere" });

/** Waits until the checks are in and the restore that follows them has run. */
async function checksSettled() {
  await loadChecks();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("keepRetiredAcrossReloads", () => {
  it("keeps every retired request in the tab's storage as the store holds them, and forgets a dismissed one", () => {
    const store = createSessionStore();
    const stop = keepRetiredAcrossReloads(store);
    store.getState().retireRequests([answered("rpc-1"), answered("rpc-2", "s-2")]);
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual([answered("rpc-1"), answered("rpc-2", "s-2")]);
    store.getState().dismissRetired("rpc-1");
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual([answered("rpc-2", "s-2")]);
    store.getState().dismissRetired("rpc-2");
    expect(sessionStorage.getItem(KEY)).toBeNull();
    stop();
    store.getState().retireRequests([answered("rpc-3")]);
    expect(sessionStorage.getItem(KEY)).toBeNull();
  });

  it("brings back, after a reload, the notices whose drafts still hold answers, and drops the rest from storage", async () => {
    const before = createSessionStore();
    const stopBefore = keepRetiredAcrossReloads(before);
    saveDraft("rpc-kept", draftWith(["npm"]));
    saveDraft("rpc-skipped", draftWith([]));
    before.getState().retireRequests([answered("rpc-kept"), { request: requestOf("rpc-stopped"), reason: "stopped" }, answered("rpc-skipped")]);
    saveDraft("rpc-stopped", draftWith(["pnpm"]));
    stopBefore();

    const after = createSessionStore();
    const stop = keepRetiredAcrossReloads(after);
    expect(after.getState().retired).toEqual({});
    await checksSettled();
    expect(after.getState().retired).toEqual({ "s-1": [answered("rpc-kept"), { request: requestOf("rpc-stopped"), reason: "stopped" }] });
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual([answered("rpc-kept"), { request: requestOf("rpc-stopped"), reason: "stopped" }]);
    stop();
  });

  it("ignores, with a warning, stored notices that are corrupt or malformed, keeps the good ones, and stores only what it restored", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    saveDraft("rpc-good", draftWith(["pnpm"]));
    sessionStorage.setItem(KEY, JSON.stringify([{ request: { rpcId: "rpc-bad" }, reason: "answered-elsewhere" }, answered("rpc-good"), { ...answered("rpc-good"), reason: "lost" }]));
    const store = createSessionStore();
    const stop = keepRetiredAcrossReloads(store);
    await checksSettled();
    expect(store.getState().retired).toEqual({ "s-1": [answered("rpc-good")] });
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual([answered("rpc-good")]);
    expect(warn.mock.calls.map(([message]) => String(message).split(":")[0])).toEqual(["ignoring a malformed notice of answers not sent", "ignoring a malformed notice of answers not sent"]);
    stop();

    warn.mockClear();
    for (const stored of ["{not json", JSON.stringify({ rpcId: "rpc-good" })]) {
      sessionStorage.setItem(KEY, stored);
      const fresh = createSessionStore();
      const stopFresh = keepRetiredAcrossReloads(fresh);
      await checksSettled();
      expect(fresh.getState().retired).toEqual({});
      expect(sessionStorage.getItem(KEY)).toBeNull();
      stopFresh();
    }
    expect(warn.mock.calls.map(([message]) => message)).toEqual(["ignoring corrupt notices of answers not sent", "ignoring notices of answers not sent that are not a list"]);
  });

  it("keeps what it read stored beside every later write when the checks cannot load, for the next load to restore", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    saveDraft("rpc-kept", draftWith(["npm"]));
    sessionStorage.setItem(KEY, JSON.stringify([answered("rpc-kept")]));
    const store = createSessionStore();
    const failure = new Error("chunk failed");
    const stop = keepRetiredAcrossReloads(store, sessionStorage, () => Promise.reject(failure));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warn.mock.calls).toEqual([["the notices of answers not sent could not be checked; they stay stored for the next load", failure]]);
    expect(store.getState().retired).toEqual({});
    store.getState().retireRequests([answered("rpc-new", "s-2")]);
    store.getState().blameHostRestart();
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual([answered("rpc-new", "s-2"), answered("rpc-kept")]);
    stop();

    saveDraft("rpc-new", draftWith(["pnpm"]));
    const next = createSessionStore();
    const stopNext = keepRetiredAcrossReloads(next);
    await checksSettled();
    expect(next.getState().retired).toEqual({ "s-2": [answered("rpc-new", "s-2")], "s-1": [answered("rpc-kept")] });
    stopNext();
  });

  it("restores nothing once it was stopped before the checks came in", async () => {
    saveDraft("rpc-kept", draftWith(["npm"]));
    sessionStorage.setItem(KEY, JSON.stringify([answered("rpc-kept")]));
    const store = createSessionStore();
    keepRetiredAcrossReloads(store)();
    await checksSettled();
    expect(store.getState().retired).toEqual({});
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual([answered("rpc-kept")]);
  });
});
