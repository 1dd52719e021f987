import { afterEach, describe, expect, it, vi } from "vitest";
import { loadChecks } from "../client/load-checks";
import { saveDraft } from "../features/question/draft-storage";
import { PROTOCOL_VERSION } from "../protocol/limits";
import type { HelloFrame, PendingRequest } from "../protocol/schemas";
import { applyFrameAndForgetDrafts } from "../client/session-engine";
import { createSessionStore } from "../store/session-store";
import type { RetiredRequest } from "../store/state";
import { keepRetiredAcrossReloads } from "./retired-storage";

const KEY = "parley.retired";
const HOST_KEY = "parley.retired.host";
const hello = (hostId: string): HelloFrame => ({ type: "hello", protocol: PROTOCOL_VERSION, hostId });

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

  it("keeps a request retired before it began (its module loads after the app starts), with nothing stored to restore", () => {
    sessionStorage.setItem(KEY, "not JSON");
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const store = createSessionStore();
    store.getState().retireRequests([answered("rpc-early")]);
    const stop = keepRetiredAcrossReloads(store);
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual([answered("rpc-early")]);
    stop();
    sessionStorage.removeItem(KEY);
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

  it("keeps the host the notices were held under, and a notice of a question that stopped waiting reads that the host restarted once a different host says hello after the reload", async () => {
    const before = createSessionStore();
    const stopBefore = keepRetiredAcrossReloads(before);
    applyFrameAndForgetDrafts(before, hello("host-a"), () => false);
    saveDraft("rpc-stopped", draftWith(["pnpm"]));
    saveDraft("rpc-answered", draftWith(["npm"]));
    const stoppedEntry: RetiredRequest = { request: requestOf("rpc-stopped"), reason: "stopped" };
    before.getState().retireRequests([stoppedEntry, answered("rpc-answered")]);
    expect([sessionStorage.getItem(HOST_KEY), JSON.parse(sessionStorage.getItem(KEY)!)]).toEqual(["host-a", [stoppedEntry, answered("rpc-answered")]]);
    stopBefore();

    // The same host after the reload: the notice still reads that the question stopped waiting.
    const same = createSessionStore();
    const stopSame = keepRetiredAcrossReloads(same);
    await checksSettled();
    applyFrameAndForgetDrafts(same, hello("host-a"), () => false);
    expect(same.getState().retired).toEqual({ "s-1": [stoppedEntry, answered("rpc-answered")] });
    stopSame();

    // A host that restarted while the page was away.
    const restarted = createSessionStore();
    const stopRestarted = keepRetiredAcrossReloads(restarted);
    await checksSettled();
    expect(restarted.getState().retired).toEqual({ "s-1": [stoppedEntry, answered("rpc-answered")] });
    applyFrameAndForgetDrafts(restarted, hello("host-b"), () => false);
    const blamed = { "s-1": [{ ...stoppedEntry, reason: "host-restarted" }, answered("rpc-answered")] };
    expect(restarted.getState().retired).toEqual(blamed);
    expect([sessionStorage.getItem(HOST_KEY), JSON.parse(sessionStorage.getItem(KEY)!)]).toEqual(["host-b", blamed["s-1"]]);
    restarted.getState().dismissRetired("rpc-stopped");
    restarted.getState().dismissRetired("rpc-answered");
    expect([sessionStorage.getItem(KEY), sessionStorage.getItem(HOST_KEY)]).toEqual([null, null]);
    stopRestarted();
  });

  it("blames the restart at once when this load met a different host before the notices were restored", async () => {
    saveDraft("rpc-stopped", draftWith(["pnpm"]));
    sessionStorage.setItem(KEY, JSON.stringify([{ request: requestOf("rpc-stopped"), reason: "stopped" }]));
    sessionStorage.setItem(HOST_KEY, "host-a");
    const store = createSessionStore({ hostId: "host-b" });
    const stop = keepRetiredAcrossReloads(store);
    await checksSettled();
    expect(store.getState().retired).toEqual({ "s-1": [{ request: requestOf("rpc-stopped"), reason: "host-restarted" }] });
    expect(store.getState().hostId).toBe("host-b");
    stop();
  });
});
