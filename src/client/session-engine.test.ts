import { describe, expect, it } from "vitest";
import type { DownFrame, Message, PendingRequest, Receipt, Session } from "../protocol/schemas";
import { createSessionStore, type SessionStore } from "../store/session-store";
import type { RetireReason } from "../store/state";
import { ApiError, type Api, type SessionsPage } from "./api";
import type { MuxConnection, MuxOptions } from "./mux";
import { applyFrameAndForgetDrafts, checkAccess, createSessionEngine, retireReasonOf, SESSIONS_PAGE_SIZE, type SessionEngineEvent } from "./session-engine";
import type { DeleteTimers } from "./undoable-delete";

function request(rpcId: string): PendingRequest {
  return { rpcId, sessionId: "s-1", questions: [{ id: "q", question: "Why?" }], createdAt: "2026-11-30T10:00:00.000Z" };
}

function session(id: string, title = "", state: Session["state"] = "idle"): Session {
  return { id, title, createdAt: "2026-11-30T10:00:00.000Z", updatedAt: "2026-11-30T10:00:00.000Z", state };
}

function message(id: string, text: string, sessionId = "s-1"): Message {
  return { id, sessionId, role: "assistant", createdAt: "2026-11-30T10:00:01.000Z", text };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** An Api whose every call is recorded; a method not given rejects, so an unexpected call fails the test. */
function fakeApi(methods: Partial<Api>) {
  const calls: [string, ...unknown[]][] = [];
  const unexpected = (name: string) => () => Promise.reject(new Error(`unexpected call of ${name}`));
  const names = ["health", "listSessions", "createSession", "getSession", "deleteSession", "renameSession", "postMessage", "abort", "respond"] as const;
  const api = Object.fromEntries(
    names.map((name) => {
      const method = (methods[name] ?? unexpected(name)) as (...args: unknown[]) => Promise<unknown>;
      return [name, (...args: unknown[]) => (calls.push([name, ...args]), method(...args))];
    }),
  ) as unknown as Api;
  return { api, calls };
}

/** A connection the test drives: `frame` and `status` deliver as the mux would. */
function fakeConnect() {
  const record = { opened: [] as MuxOptions[], closed: 0, retries: 0 };
  const connect = (options: MuxOptions): MuxConnection => {
    record.opened.push(options);
    return {
      status: "connecting",
      retryNow: () => void (record.retries += 1),
      close: () => void (record.closed += 1),
    };
  };
  const current = () => record.opened.at(-1)!;
  return { connect, record, frame: (frame: DownFrame) => current().onFrame(frame), status: (status: "online" | "offline") => current().onStatus?.(status) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function engineWith(
  api: Api,
  options: {
    store?: SessionStore;
    retireDraft?: (rpcId: string, reason: RetireReason | null) => boolean | "after-receipt";
    settleResponse?: (rpcId: string, done: boolean) => RetireReason | null;
    drafts?: Map<string, string>;
    deleteTimers?: DeleteTimers;
  } = {},
) {
  const store = options.store ?? createSessionStore();
  const link = fakeConnect();
  const drafts = options.drafts ?? new Map<string, string>();
  const engine = createSessionEngine({
    store,
    api,
    connect: link.connect,
    url: "ws://127.0.0.1:1/api/mux",
    drafts,
    newChatDraftKey: "",
    retireDraft: options.retireDraft ?? (() => false),
    ...(options.settleResponse === undefined ? {} : { settleResponse: options.settleResponse }),
    ...(options.deleteTimers === undefined ? {} : { deleteTimers: options.deleteTimers }),
  });
  const events: SessionEngineEvent[] = [];
  engine.on((event) => events.push(event));
  return { engine, store, link, events, drafts };
}

/** A draft-forgetting callback that records each rpcId and reports no draft kept. */
function recordingForget() {
  const forgotten: string[] = [];
  const forget = (rpcId: string) => {
    forgotten.push(rpcId);
    return false;
  };
  return { forgotten, forget };
}

describe("applyFrameAndForgetDrafts", () => {
  it("forgets the draft of a request that question/resolved removed, and only that one", () => {
    const store = createSessionStore();
    const { forgotten, forget } = recordingForget();
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r1") }, forget);
    applyFrameAndForgetDrafts(store, { type: "question/requested", ...request("r2") }, forget);
    expect(applyFrameAndForgetDrafts(store, { type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "answered" }, forget)).toEqual([]);
    expect(forgotten).toEqual(["r1"]);
    expect(store.getState().pending).toEqual({ "s-1": [{ request: request("r2"), confirmed: true }] });
  });

  it("forgets drafts of requests a synced drops, and keeps them across a hello from the same host", () => {
    const store = createSessionStore();
    const { forgotten, forget } = recordingForget();
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
    const { forgotten, forget } = recordingForget();
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
    expect(applyFrameAndForgetDrafts(store, { type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "answered" }, keep)).toEqual([{ request: request("r1"), reason: "answered-elsewhere" }]);
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
    // A cluster's adoption of a dead host: an abort is the host's loss; an answer it had claimed is still another tab's.
    expect(retireReasonOf({ type: "question/resolved", rpcId: "r", sessionId: "s", outcome: "aborted", cause: "host-lost" })).toBe("host-lost");
    expect(retireReasonOf({ type: "question/resolved", rpcId: "r", sessionId: "s", outcome: "answered", cause: "host-lost" })).toBe("answered-elsewhere");
    expect(retireReasonOf({ type: "synced" })).toBe("resolved-away");
    expect(retireReasonOf({ type: "hello", protocol: 2, hostId: "h" })).toBe("host-restarted");
    expect(retireReasonOf({ type: "session/deleted", sessionId: "s" })).toBeNull();
  });
});

describe("checkAccess", () => {
  it("marks a host that answers 401 UNAUTHORIZED as wanting a login, and clears it once health answers", async () => {
    const store = createSessionStore();
    await checkAccess(fakeApi({ health: () => Promise.reject(new ApiError(401, "UNAUTHORIZED", "a valid token is required")) }).api, store);
    expect(store.getState().access).toBe("login-required");
    await checkAccess(fakeApi({ health: () => Promise.resolve({ ok: true, hostId: "h", protocol: 2 }) }).api, store);
    expect(store.getState().access).toBe("open");
  });

  it("leaves access alone when the host is simply unreachable", async () => {
    const store = createSessionStore();
    await checkAccess(fakeApi({ health: () => Promise.reject(new TypeError("Failed to fetch")) }).api, store);
    expect(store.getState().access).toBe("open");
  });
});

describe("createSessionEngine", () => {
  it("opens one downlink on start, reports its status to the store, and asks health when it goes offline", async () => {
    const { api, calls } = fakeApi({ health: () => Promise.reject(new ApiError(401, "UNAUTHORIZED", "a valid token is required")) });
    const { engine, store, link } = engineWith(api);
    engine.start();
    engine.start();
    expect(link.record.opened.map((options) => options.url)).toEqual(["ws://127.0.0.1:1/api/mux"]);
    link.status("offline");
    await flush();
    expect([store.getState().connection, store.getState().access, calls]).toEqual(["offline", "login-required", [["health"]]]);
    link.status("online");
    expect([store.getState().connection, store.getState().access]).toEqual(["online", "open"]);
    engine.retryNow();
    engine.close();
    expect([link.record.retries, link.record.closed]).toEqual([1, 1]);
  });

  it("opens a fresh downlink when started again after close, as a remount does", () => {
    const { api } = fakeApi({});
    const { engine, link } = engineWith(api);
    engine.start();
    engine.close();
    engine.close();
    engine.start();
    engine.retryNow();
    expect([link.record.opened.length, link.record.closed, link.record.retries]).toEqual([2, 1, 1]);
  });

  it("re-baselines the list's first page and the open session on every hello, then reports loaded", async () => {
    const { api, calls } = fakeApi({
      listSessions: () => Promise.resolve({ sessions: [session("s-1", "One"), session("s-2", "Two")], next: "c-2" }),
      getSession: () => Promise.resolve({ session: session("s-1", "One"), messages: [message("m-1", "hi")] }),
    });
    const { engine, store, link, events } = engineWith(api);
    engine.start();
    link.frame({ type: "hello", protocol: 2, hostId: "h" });
    await flush();
    expect(calls).toEqual([["listSessions", { limit: SESSIONS_PAGE_SIZE }]]);
    engine.open("s-1");
    await flush();
    link.frame({ type: "hello", protocol: 2, hostId: "h" });
    await flush();
    expect(calls).toEqual([["listSessions", { limit: SESSIONS_PAGE_SIZE }], ["getSession", "s-1"], ["listSessions", { limit: SESSIONS_PAGE_SIZE }], ["getSession", "s-1"]]);
    expect([store.getState().sessions.map((held) => held.id).sort(), store.getState().sessionsCursor, store.getState().transcripts]).toEqual([["s-1", "s-2"], "c-2", { "s-1": [message("m-1", "hi")] }]);
    expect(events).toEqual([{ type: "loaded" }, { type: "loaded" }, { type: "loaded" }]);
  });

  it("keeps what a frame brought while a fetch was in flight over the fetch's older copy", async () => {
    const detail = deferred<{ session: Session; messages: Message[] }>();
    const { api } = fakeApi({ getSession: () => detail.promise });
    const { engine, store, link } = engineWith(api);
    engine.start();
    engine.open("s-1");
    link.frame({ type: "session/upserted", session: session("s-1", "Renamed live", "running") });
    link.frame({ type: "message/upserted", message: message("m-1", "the whole reply") });
    detail.resolve({ session: session("s-1", "Old title"), messages: [message("m-1", "the wh")] });
    await flush();
    expect([store.getState().sessions, store.getState().transcripts]).toEqual([[session("s-1", "Renamed live", "running")], { "s-1": [message("m-1", "the whole reply")] }]);
  });

  it("reports a missing open session and navigates to the new chat; a missing one no longer open only reports", async () => {
    const { api } = fakeApi({ getSession: (sessionId) => Promise.reject(new ApiError(404, "NOT_FOUND", `no session ${sessionId}`)) });
    const { engine, events } = engineWith(api);
    engine.open("gone");
    await flush();
    engine.open("gone-too");
    engine.open(null);
    await flush();
    expect(events).toEqual([{ type: "navigate", sessionId: null }, { type: "session-missing", sessionId: "gone" }, { type: "session-missing", sessionId: "gone-too" }]);
  });

  it("reports load-failed when the list or a session cannot be fetched", async () => {
    const down = new TypeError("Failed to fetch");
    const { api } = fakeApi({ listSessions: () => Promise.reject(down), getSession: () => Promise.reject(down) });
    const { engine, link, events } = engineWith(api);
    engine.start();
    link.frame({ type: "hello", protocol: 2, hostId: "h" });
    await flush();
    engine.open("s-1");
    await flush();
    expect(events).toEqual([{ type: "load-failed", error: down }, { type: "load-failed", error: down }]);
  });

  it("navigates away when the open session is deleted, and not for another", async () => {
    const { api } = fakeApi({ getSession: () => Promise.resolve({ session: session("s-1"), messages: [] }) });
    const { engine, link, events } = engineWith(api);
    engine.start();
    engine.open("s-1");
    await flush();
    link.frame({ type: "session/deleted", sessionId: "s-2" });
    link.frame({ type: "session/deleted", sessionId: "s-1" });
    expect(events).toEqual([{ type: "loaded" }, { type: "navigate", sessionId: null }]);
  });

  it("keeps a session deleted by a frame while its fetch was in flight out of the list and the transcripts", async () => {
    const detail = deferred<{ session: Session; messages: Message[] }>();
    const { api } = fakeApi({ getSession: () => detail.promise });
    const { engine, link, events, store } = engineWith(api);
    engine.start();
    link.frame({ type: "session/upserted", session: session("s-1", "Doomed") });
    engine.open("s-1");
    link.frame({ type: "session/deleted", sessionId: "s-1" });
    detail.resolve({ session: session("s-1", "Doomed"), messages: [message("m-1", "hi")] });
    await flush();
    expect(events).toEqual([{ type: "navigate", sessionId: null }, { type: "session-missing", sessionId: "s-1" }]);
    expect(store.getState().sessions).toEqual([]);
    expect(store.getState().transcripts).toEqual({});
  });

  it("applies streamed pieces and rows once per paint, and before any other frame or a fetch's result, so order holds", async () => {
    const detail = deferred<{ session: Session; messages: Message[] }>();
    const { api } = fakeApi({ getSession: () => detail.promise });
    const store = createSessionStore();
    const paints: (() => void)[] = [];
    const link = fakeConnect();
    const engine = createSessionEngine({ store, api, connect: link.connect, url: "ws://127.0.0.1:1/api/mux", drafts: new Map(), newChatDraftKey: "", retireDraft: () => false, scheduleStreamed: (run) => paints.push(run) });
    let changes = 0;
    store.subscribe(() => (changes += 1));
    engine.start();
    for (const piece of ["Str", "eam", "ed"]) link.frame({ type: "message/delta", sessionId: "s-1", messageId: "m-1", text: piece });
    expect([changes, store.getState().transcripts]).toEqual([0, {}]);
    paints[0]!();
    expect(changes).toBe(1);
    expect(store.getState().transcripts["s-1"]?.map((row) => row.text)).toEqual(["Streamed"]);

    link.frame({ type: "message/delta", sessionId: "s-1", messageId: "m-1", text: " text" });
    link.frame({ type: "message/upserted", message: message("m-1", "Streamed text, closed") });
    link.frame({ type: "session/upserted", session: { ...session("s-1"), state: "waiting" } });
    // Rows, a transcript's and a session's, wait for the paint with the text before them; any other frame applies them first, as one change.
    expect([changes, store.getState().transcripts["s-1"]?.map((row) => row.text), store.getState().sessions]).toEqual([1, ["Streamed"], []]);
    link.frame({ type: "question/requested", ...request("r1") });
    expect([changes, store.getState().transcripts["s-1"]?.map((row) => row.text), store.getState().sessions.map((row) => [row.id, row.state]), Object.keys(store.getState().pending)]).toEqual([
      3,
      ["Streamed text, closed"],
      [["s-1", "waiting"]],
      ["s-1"],
    ]);

    engine.open("s-1");
    link.frame({ type: "message/delta", sessionId: "s-1", messageId: "m-2", text: "Next" });
    detail.resolve({ session: session("s-1"), messages: [message("m-1", "Streamed text, closed")] });
    await flush();
    // The held piece went in before the fetch's result, which keeps the version frames touched.
    expect(store.getState().transcripts["s-1"]?.map((row) => [row.id, row.text])).toEqual([
      ["m-1", "Streamed text, closed"],
      ["m-2", "Next"],
    ]);
  });

  it("reports synced, every request pending once the replay is in and after each resolve, and the requests that left while this tab kept drafts for them", () => {
    const { api } = fakeApi({});
    const { engine, link, events, store } = engineWith(api, { retireDraft: (rpcId) => rpcId === "r1" });
    engine.start();
    link.frame({ type: "question/requested", ...request("r1") });
    link.frame({ type: "question/requested", ...request("r2") });
    link.frame({ type: "synced" });
    link.frame({ type: "question/resolved", rpcId: "r2", sessionId: "s-1", outcome: "answered" });
    link.frame({ type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "cancelled" });
    expect(events).toEqual([
      { type: "synced" },
      { type: "pending-known", rpcIds: ["r1", "r2"] },
      { type: "pending-known", rpcIds: ["r1"] },
      { type: "requests-left", retired: [{ request: request("r1"), reason: "dismissed-elsewhere" }] },
      { type: "pending-known", rpcIds: [] },
    ]);
    expect(store.getState().retired).toEqual({ "s-1": [{ request: request("r1"), reason: "dismissed-elsewhere" }] });
  });

  it("keeps for a notice the drafts of a request that left while this tab's response was in flight, once the receipt says it was not taken", async () => {
    const receipts = [deferred<Receipt>(), deferred<Receipt>(), deferred<Receipt>(), deferred<Receipt>()];
    let call = 0;
    // The drafts' side, as retired-drafts.ts does it: a response marked in flight defers its request's drafts to the
    // receipt, and every one not taken is worth a notice, with the reason the frame gave.
    const inFlight = new Set<string>();
    const reasons = new Map<string, RetireReason | null>();
    const settled: [string, boolean][] = [];
    const { api } = fakeApi({ respond: () => receipts[call++]!.promise });
    const { engine, link, events, store } = engineWith(api, {
      retireDraft: (rpcId, reason) => (inFlight.has(rpcId) ? (reasons.set(rpcId, reason), "after-receipt") : false),
      settleResponse: (rpcId, done) => (settled.push([rpcId, done]), inFlight.delete(rpcId), done ? null : (reasons.get(rpcId) ?? null)),
    });
    engine.start();
    for (const rpcId of ["r1", "r2", "r3", "r4"]) link.frame({ type: "question/requested", ...request(rpcId) });
    const answer = (rpcId: string) => {
      inFlight.add(rpcId);
      return engine.respond({ type: "answer", rpcId, sessionId: "s-1", answers: [{ id: "q", selected: ["Yes"] }] });
    };
    const [first, second, third] = [answer("r1"), answer("r2"), answer("r3")];
    for (const rpcId of ["r1", "r2"]) link.frame({ type: "question/resolved", rpcId, sessionId: "s-1", outcome: "answered" });
    // r4: a plan's "Chat about it" stops the turn before its cancel goes, and the stop's frame comes first.
    inFlight.add("r4");
    link.frame({ type: "question/resolved", rpcId: "r4", sessionId: "s-1", outcome: "aborted" });
    const fourth = engine.respond({ type: "cancel", rpcId: "r4", sessionId: "s-1" });
    // r1: another tab's answer came first. r2: this tab's was taken. r3: still pending when its request failed.
    // r4: the cancel's request failed, so the note it carried is not in the composer.
    receipts[0]!.resolve({ accepted: false, reason: "not-pending", detail: "question r1 is not pending" });
    receipts[1]!.resolve({ accepted: true });
    receipts[2]!.reject(new Error("Failed to fetch"));
    receipts[3]!.reject(new Error("Failed to fetch"));
    expect(await first).toEqual({ accepted: false, reason: "not-pending", detail: "question r1 is not pending" });
    expect(await second).toEqual({ accepted: true });
    await expect(third).rejects.toThrow("Failed to fetch");
    await expect(fourth).rejects.toThrow("Failed to fetch");
    expect(settled).toEqual([["r1", false], ["r2", true], ["r3", false], ["r4", false]]);
    const retired = [
      { request: request("r1"), reason: "answered-elsewhere" },
      { request: request("r4"), reason: "stopped" },
    ];
    expect(events.filter((event) => event.type !== "pending-known")).toEqual(retired.map((entry) => ({ type: "requests-left", retired: [entry] })));
    expect(store.getState().retired).toEqual({ "s-1": retired });
    expect(store.getState().pending).toEqual({ "s-1": [{ request: request("r3"), confirmed: true }] });
  });

  it("tells an answer whose reply never came, for a request answered meanwhile, as perhaps taken, not as another tab's", async () => {
    const receipt = deferred<Receipt>();
    const reasons = new Map<string, RetireReason | null>();
    const { api } = fakeApi({ respond: () => receipt.promise });
    const { engine, link, events, store } = engineWith(api, {
      retireDraft: (rpcId, reason) => (reasons.set(rpcId, reason), "after-receipt"),
      settleResponse: (rpcId, done) => (done ? null : (reasons.get(rpcId) ?? null)),
    });
    engine.start();
    link.frame({ type: "question/requested", ...request("r1") });
    const answered = engine.respond({ type: "answer", rpcId: "r1", sessionId: "s-1", answers: [{ id: "q", selected: ["Yes"] }] });
    link.frame({ type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "answered" });
    // The host took it, and its reply was lost on the way back (a cut connection, a proxy's error page).
    receipt.reject(new Error("Failed to fetch"));
    await expect(answered).rejects.toThrow("Failed to fetch");
    const retired = [{ request: request("r1"), reason: "answered-unconfirmed" }];
    expect(events.filter((event) => event.type !== "pending-known")).toEqual([{ type: "requests-left", retired }]);
    expect(store.getState().retired).toEqual({ "s-1": retired });
  });

  it("tells it so too when the failed reply comes before the frame; only an answer found pending forgets it, and the host's own refusal is a receipt", async () => {
    const { api } = fakeApi({ respond: () => Promise.reject(new TypeError("Failed to fetch")) });
    const { engine, link, events } = engineWith(api, { retireDraft: () => true, settleResponse: () => null });
    engine.start();
    for (const rpcId of ["r1", "r2", "r3", "r4"]) link.frame({ type: "question/requested", ...request(rpcId) });
    const answer = (rpcId: string) => engine.respond({ type: "answer", rpcId, sessionId: "s-1", answers: [{ id: "q", selected: ["Yes"] }] });
    // r1, r2, r3: no receipt. r4: the host itself refused it (an expired login): it was not taken.
    for (const rpcId of ["r1", "r2", "r3"]) await expect(answer(rpcId)).rejects.toThrow("Failed to fetch");
    api.respond = () => Promise.reject(new ApiError(401, "UNAUTHORIZED", "log in again"));
    await expect(answer("r4")).rejects.toThrow("log in again");
    // r2: sent again and found gone: the first may still be the one taken. r3: sent again and taken: this tab's own.
    api.respond = () => Promise.resolve({ accepted: false, reason: "not-pending", detail: "question r2 is not pending" });
    await answer("r2");
    api.respond = () => Promise.resolve({ accepted: true });
    await answer("r3");
    for (const rpcId of ["r1", "r2", "r4"]) link.frame({ type: "question/resolved", rpcId, sessionId: "s-1", outcome: "answered" });
    expect(events.filter((event) => event.type === "requests-left")).toEqual([
      { type: "requests-left", retired: [{ request: request("r1"), reason: "answered-unconfirmed" }] },
      { type: "requests-left", retired: [{ request: request("r2"), reason: "answered-unconfirmed" }] },
      { type: "requests-left", retired: [{ request: request("r4"), reason: "answered-elsewhere" }] },
    ]);
  });

  it("counts a cancel that finds its request gone as done: nothing is kept", async () => {
    const { api } = fakeApi({ respond: () => Promise.resolve({ accepted: false, reason: "not-pending", detail: "question r1 is not pending" }) });
    const settled: [string, boolean][] = [];
    const { engine } = engineWith(api, { settleResponse: (rpcId, done) => (settled.push([rpcId, done]), null) });
    await engine.respond({ type: "cancel", rpcId: "r1", sessionId: "s-1" });
    await engine.respond({ type: "answer", rpcId: "r1", sessionId: "s-1", answers: [] });
    expect(settled).toEqual([["r1", true], ["r1", false]]);
  });

  it("creates a session on the first send of a new chat, carries the new chat's draft to it and navigates there", async () => {
    const sent = { ...message("m-u", "Hello"), sessionId: "s-new", role: "user" as const };
    const { api, calls } = fakeApi({ createSession: () => Promise.resolve(session("s-new")), postMessage: () => Promise.resolve(sent) });
    const drafts = new Map([["", "typed while sending"]]);
    const { engine, store, events } = engineWith(api, { drafts });
    await engine.send(null, "Hello");
    expect(calls).toEqual([["createSession"], ["postMessage", "s-new", "Hello"]]);
    expect(events).toEqual([{ type: "navigate", sessionId: "s-new" }]);
    expect(drafts).toEqual(new Map([["s-new", "typed while sending"]]));
    expect([store.getState().sessions, store.getState().transcripts]).toEqual([[session("s-new")], { "s-new": [sent] }]);
  });

  it("sends to an open session, stops it, responds, renames and searches through the api", async () => {
    const sent = { ...message("m-u", "More"), role: "user" as const };
    const receipt = { accepted: true } as const;
    const page = { sessions: [session("s-9", "found")], next: null };
    const { api, calls } = fakeApi({
      postMessage: () => Promise.resolve(sent),
      abort: () => Promise.resolve(true),
      respond: () => Promise.resolve(receipt),
      renameSession: (sessionId, title) => Promise.resolve(session(sessionId, title)),
      listSessions: () => Promise.resolve(page),
    });
    const { engine, store, events } = engineWith(api);
    await engine.send("s-1", "More");
    await engine.stop("s-1");
    expect(await engine.respond({ type: "cancel", rpcId: "r1", sessionId: "s-1" })).toEqual(receipt);
    await engine.rename("s-1", "Named");
    expect(await engine.search("fou", "c-1")).toEqual(page);
    expect(await engine.search("fou")).toEqual(page);
    expect(calls).toEqual([
      ["postMessage", "s-1", "More"],
      ["abort", "s-1"],
      ["respond", { type: "cancel", rpcId: "r1", sessionId: "s-1" }],
      ["renameSession", "s-1", "Named"],
      ["listSessions", { q: "fou", limit: SESSIONS_PAGE_SIZE, before: "c-1" }],
      ["listSessions", { q: "fou", limit: SESSIONS_PAGE_SIZE }],
    ]);
    expect([store.getState().sessions, store.getState().transcripts, events]).toEqual([[session("s-1", "Named")], { "s-1": [sent] }, []]);
  });

  it("loads the next page once while a load runs, and reports load-failed when it fails", async () => {
    const next = deferred<SessionsPage>();
    const down = new TypeError("Failed to fetch");
    const pages = [() => Promise.resolve({ sessions: [session("s-1")], next: "c-1" }), () => next.promise, () => Promise.reject(down)];
    const { api, calls } = fakeApi({ listSessions: () => pages.shift()!() });
    const { engine, store, link, events } = engineWith(api);
    await engine.loadMore();
    engine.start();
    link.frame({ type: "hello", protocol: 2, hostId: "h" });
    await flush();
    const first = engine.loadMore();
    await engine.loadMore();
    next.resolve({ sessions: [session("s-0")], next: "c-0" });
    await first;
    await engine.loadMore();
    expect(calls).toEqual([
      ["listSessions", { limit: SESSIONS_PAGE_SIZE }],
      ["listSessions", { limit: SESSIONS_PAGE_SIZE, before: "c-1" }],
      ["listSessions", { limit: SESSIONS_PAGE_SIZE, before: "c-0" }],
    ]);
    expect([store.getState().sessions.map((held) => held.id), store.getState().sessionsCursor]).toEqual([["s-1", "s-0"], "c-0"]);
    expect(events).toEqual([{ type: "loaded" }, { type: "load-failed", error: down }]);
  });

  it("hides a deleted session, navigates off it, brings it back on undo, and deletes on the host once the window passes", async () => {
    const waiting: (() => void)[] = [];
    const timers: DeleteTimers = { setTimeout: (callback) => waiting.push(callback), clearTimeout: () => undefined };
    const { api, calls } = fakeApi({ getSession: (sessionId) => Promise.resolve({ session: session(sessionId), messages: [] }), deleteSession: () => Promise.resolve() });
    const { engine, events } = engineWith(api, { deleteTimers: timers });
    engine.open("s-1");
    await flush();
    engine.requestDelete("s-1");
    expect(engine.undoDelete("s-1")).toBe(true);
    engine.requestDelete("s-2");
    waiting[1]!();
    await flush();
    expect(engine.undoDelete("s-2")).toBe(false);
    expect(calls).toEqual([["getSession", "s-1"], ["deleteSession", "s-2"]]);
    expect(events).toEqual([
      { type: "loaded" },
      { type: "hidden-sessions", sessionIds: new Set(["s-1"]) },
      { type: "navigate", sessionId: null },
      { type: "hidden-sessions", sessionIds: new Set() },
      { type: "navigate", sessionId: "s-1" },
      { type: "hidden-sessions", sessionIds: new Set(["s-2"]) },
      { type: "hidden-sessions", sessionIds: new Set() },
    ]);
  });

  it("reports a failed delete, and deletes what still waits when it closes", async () => {
    const refused = new ApiError(500, "STORAGE_FAILED", "disk full");
    const { api, calls } = fakeApi({ deleteSession: (sessionId) => (sessionId === "s-1" ? Promise.reject(refused) : Promise.resolve()) });
    const { engine, events } = engineWith(api, { deleteTimers: { setTimeout: () => 0, clearTimeout: () => undefined } });
    engine.start();
    engine.requestDelete("s-1");
    engine.requestDelete("s-2");
    engine.close();
    await flush();
    expect(calls).toEqual([["deleteSession", "s-1"], ["deleteSession", "s-2"]]);
    expect(events.filter((event) => event.type === "delete-failed")).toEqual([{ type: "delete-failed", sessionId: "s-1", error: refused }]);
  });

  it("stops telling a listener once it unsubscribed", () => {
    const { api } = fakeApi({});
    const { engine, link, events } = engineWith(api);
    const late: SessionEngineEvent[] = [];
    const unsubscribe = engine.on((event) => late.push(event));
    engine.start();
    link.frame({ type: "synced" });
    unsubscribe();
    link.frame({ type: "synced" });
    const synced = [{ type: "synced" }, { type: "pending-known", rpcIds: [] }];
    expect([events, late]).toEqual([[...synced, ...synced], synced]);
  });
});
