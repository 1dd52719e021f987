import { describe, expect, it } from "vitest";
import type { DownFrame, Message, PendingRequest, Session } from "../protocol/schemas";
import { applyFetchedSession, applyFrame, applySessions, applySessionsPage, applyTranscript } from "./apply-frame";
import { initialSessionData, type SessionData } from "./state";
import { createSessionStore } from "./session-store";

function request(rpcId: string, sessionId = "s-1"): PendingRequest {
  return {
    rpcId,
    sessionId,
    questions: [{ id: `q-${rpcId}`, question: `Question of ${rpcId}?`, options: [{ label: "Yes" }, { label: "No" }] }],
    createdAt: "2026-11-30T10:00:00.000Z",
  };
}

function requested(pending: PendingRequest): DownFrame {
  return { type: "question/requested", ...pending };
}

function resolved(rpcId: string, sessionId = "s-1"): DownFrame {
  return { type: "question/resolved", rpcId, sessionId, outcome: "answered" };
}

function session(id: string, createdAt: string, state: Session["state"] = "idle"): Session {
  return { id, title: `Chat ${id}`, createdAt, updatedAt: createdAt, state };
}

function message(id: string, text: string, sessionId = "s-1"): Message {
  return { id, sessionId, role: "assistant", createdAt: "2026-11-30T10:00:00.000Z", text };
}

const upserted = (session: Session): DownFrame => ({ type: "session/upserted", session });
const posted = (message: Message): DownFrame => ({ type: "message/upserted", message });
const hello = (hostId: string): DownFrame => ({ type: "hello", protocol: 2, hostId });
const synced: DownFrame = { type: "synced" };

function run(frames: DownFrame[], from: SessionData = initialSessionData): SessionData {
  return frames.reduce((state, frame) => applyFrame(state, frame), from);
}

/** Upserts an older and a newer session, then the older one again with `change` applied. */
function changeOlder(change: Partial<Session>) {
  const older = session("a", "2026-11-30T08:00:00.000Z");
  const newer = session("b", "2026-11-30T09:00:00.000Z");
  return { older, newer, state: run([upserted(older), upserted(newer), upserted({ ...older, ...change })]) };
}

describe("applyFrame: hello", () => {
  it("records the host id of the first hello", () => {
    expect(run([hello("host-a")])).toEqual({ ...initialSessionData, hostId: "host-a" });
  });

  it("marks every held request unconfirmed when the same host says hello again", () => {
    const held = run([hello("host-a"), requested(request("r1")), requested(request("r2", "s-2")), synced]);
    expect(applyFrame(held, hello("host-a")).pending).toEqual({
      "s-1": [{ request: request("r1"), confirmed: false }],
      "s-2": [{ request: request("r2", "s-2"), confirmed: false }],
    });
  });

  it("drops every held request when a new host id says hello", () => {
    const held = run([hello("host-a"), requested(request("r1")), requested(request("r2", "s-2")), synced]);
    const next = applyFrame(held, hello("host-b"));
    expect(next.pending).toEqual({});
    expect(next.hostId).toBe("host-b");
  });
});

describe("applyFrame: question/requested", () => {
  it("adds requests per session in arrival order, confirmed", () => {
    const state = run([hello("host-a"), requested(request("r1")), requested(request("r2", "s-2")), requested(request("r3"))]);
    expect(state.pending).toEqual({
      "s-1": [
        { request: request("r1"), confirmed: true },
        { request: request("r3"), confirmed: true },
      ],
      "s-2": [{ request: request("r2", "s-2"), confirmed: true }],
    });
  });

  it("confirms a replayed request in place, keeping its position and its object", () => {
    const held = run([hello("host-a"), requested(request("r1")), requested(request("r2")), requested(request("r3")), synced]);
    const original = held.pending["s-1"]![1]!.request;
    const state = run([hello("host-a"), requested(request("r2")), requested(request("r1"))], held);
    expect(state.pending["s-1"]).toEqual([
      { request: request("r1"), confirmed: true },
      { request: request("r2"), confirmed: true },
      { request: request("r3"), confirmed: false },
    ]);
    expect(state.pending["s-1"]![1]!.request).toBe(original);
  });

  it("returns the same state for a duplicate of a confirmed request", () => {
    const state = run([hello("host-a"), requested(request("r1"))]);
    expect(applyFrame(state, requested(request("r1")))).toBe(state);
  });
});

describe("applyFrame: synced re-baseline", () => {
  it("drops requests that were not replayed since the hello (resolved while away)", () => {
    const held = run([hello("host-a"), requested(request("r1")), requested(request("r2")), synced]);
    const state = run([hello("host-a"), requested(request("r2")), synced], held);
    expect(state.pending).toEqual({ "s-1": [{ request: request("r2"), confirmed: true }] });
  });

  it("removes a session's list once none of its requests was replayed", () => {
    const held = run([hello("host-a"), requested(request("r1")), requested(request("r2", "s-2")), synced]);
    const state = run([hello("host-a"), requested(request("r2", "s-2")), synced], held);
    expect(state.pending).toEqual({ "s-2": [{ request: request("r2", "s-2"), confirmed: true }] });
  });

  it("keeps replays that arrive while the connection still reads connecting", () => {
    const state = run([hello("host-a"), requested(request("r1")), synced], { ...initialSessionData, connection: "connecting" });
    expect(state.connection).toBe("connecting");
    expect(state.pending).toEqual({ "s-1": [{ request: request("r1"), confirmed: true }] });
  });

  it("keeps replays that arrive while the connection reads offline", () => {
    const state = run([hello("host-a"), requested(request("r1")), synced], { ...initialSessionData, connection: "offline" });
    expect(state.pending).toEqual({ "s-1": [{ request: request("r1"), confirmed: true }] });
  });

  it("keeps requests added live after a synced across the next synced", () => {
    const state = run([hello("host-a"), synced, requested(request("r1")), synced]);
    expect(state.pending).toEqual({ "s-1": [{ request: request("r1"), confirmed: true }] });
  });

  it("after a host restart keeps only what the new host replays", () => {
    const held = run([hello("host-a"), requested(request("r1")), synced]);
    const state = run([hello("host-b"), requested(request("r9")), synced], held);
    expect(state.pending).toEqual({ "s-1": [{ request: request("r9"), confirmed: true }] });
  });
});

describe("applyFrame: question/resolved", () => {
  it("removes exactly the resolved request and keeps the others in order", () => {
    const held = run([hello("host-a"), requested(request("r1")), requested(request("r2")), requested(request("r3"))]);
    expect(applyFrame(held, resolved("r2")).pending).toEqual({
      "s-1": [
        { request: request("r1"), confirmed: true },
        { request: request("r3"), confirmed: true },
      ],
    });
  });

  it("removes an unconfirmed request too", () => {
    const held = run([hello("host-a"), requested(request("r1")), synced, hello("host-a")]);
    expect(applyFrame(held, resolved("r1")).pending).toEqual({});
  });

  it("returns the same state for an unknown rpcId", () => {
    const held = run([hello("host-a"), requested(request("r1"))]);
    expect(applyFrame(held, resolved("nope"))).toBe(held);
  });

  it("is the only thing besides synced that removes a request: a store keeps it after any number of other frames", () => {
    const store = createSessionStore();
    const frames: DownFrame[] = [
      hello("host-a"),
      requested(request("r1")),
      synced,
      upserted(session("s-1", "2026-11-30T10:00:00.000Z", "waiting")),
      posted(message("m1", "")),
      { type: "message/delta", sessionId: "s-1", messageId: "m1", text: "hi" },
    ];
    frames.forEach((frame) => store.getState().applyFrame(frame));
    store.getState().setConnection("online");
    expect(store.getState().pending).toEqual({ "s-1": [{ request: request("r1"), confirmed: true }] });
    store.getState().applyFrame(resolved("r1"));
    expect(store.getState().pending).toEqual({});
  });
});

describe("the connection as the user sees it", () => {
  it("connects once, and stays offline through the attempts to reconnect until one is online", () => {
    const store = createSessionStore();
    const seen: string[] = [];
    store.subscribe((state, before) => {
      if (state.connection !== before.connection) seen.push(state.connection);
    });
    for (const status of ["online", "offline", "connecting", "offline", "connecting", "online", "connecting"] as const) store.getState().setConnection(status);
    expect(seen).toEqual(["online", "offline", "online", "connecting"]);
  });
});

describe("applyFrame: sessions", () => {
  it("inserts sessions newest first and replaces a changed one in place", () => {
    const { older, newer, state } = changeOlder({ title: "Renamed", state: "running" });
    expect(state.sessions).toEqual([newer, { ...older, title: "Renamed", state: "running" }]);
  });

  it("[session-revision] keeps the newer row's fields when an older copy comes after it, and takes that copy's state", () => {
    const base = { ...session("a", "2026-11-30T08:00:00.000Z"), revision: 3 };
    // Another host's rename (revision 4) reached this tab before this host's turn-end stamp stored before it (revision 3).
    const renamed = { ...base, title: "Renamed", revision: 4 };
    const stampedEarlier = { ...base, updatedAt: "2026-11-30T08:05:00.000Z", state: "running" as const };
    expect(run([upserted(renamed), upserted(stampedEarlier)]).sessions).toEqual([{ ...renamed, state: "running" }]);
    // The same revision or a newer one replaces the row, as does a copy that carries none.
    expect(run([upserted(renamed), upserted({ ...renamed, state: "waiting" })]).sessions).toEqual([{ ...renamed, state: "waiting" }]);
    expect(run([upserted(stampedEarlier), upserted(renamed)]).sessions).toEqual([renamed]);
    const unnumbered = session("a", "2026-11-30T09:00:00.000Z");
    expect(run([upserted(renamed), upserted(unnumbered)]).sessions).toEqual([unnumbered]);
    // An HTTP answer older than a frame already applied (a rename's answer, "running", after the frame of the turn's
    // end stamp, idle) changes nothing, its state included.
    expect(applyFetchedSession(run([upserted(renamed)]), { ...base, title: "Before", state: "running" }).sessions).toEqual([renamed]);
  });

  it("deletes a session with its transcript and its pending requests", () => {
    const state = run([
      upserted(session("s-1", "2026-11-30T09:00:00.000Z")),
      upserted(session("s-2", "2026-11-30T10:00:00.000Z")),
      posted(message("m1", "one")),
      posted(message("m2", "two", "s-2")),
      requested(request("r1")),
      requested(request("r2", "s-2")),
      { type: "session/deleted", sessionId: "s-1" },
    ]);
    expect(state.sessions).toEqual([session("s-2", "2026-11-30T10:00:00.000Z")]);
    expect(state.transcripts).toEqual({ "s-2": [message("m2", "two", "s-2")] });
    expect(state.pending).toEqual({ "s-2": [{ request: request("r2", "s-2"), confirmed: true }] });
  });

  it("replaces the whole list from a fetch, sorted newest first", () => {
    const a = session("a", "2026-11-30T08:00:00.000Z");
    const b = session("b", "2026-11-30T09:00:00.000Z");
    const gone = session("gone", "2026-11-30T07:00:00.000Z");
    const state = applySessions(run([upserted(gone)]), [a, b]);
    expect(state.sessions).toEqual([b, a]);
  });

  it("keeps sessions that frames changed or created after the list fetch started", () => {
    const idle = session("a", "2026-11-30T08:00:00.000Z", "idle");
    const created = session("c", "2026-11-30T11:00:00.000Z");
    const current = run([
      upserted(idle),
      upserted(created),
    ]);
    const state = applySessions(current, [{ ...idle, state: "running" }], new Set(["a", "c"]));
    expect(state.sessions).toEqual([created, idle]);
  });

  it("does not bring back a session deleted after the list fetch started", () => {
    const doomed = session("d", "2026-11-30T08:00:00.000Z");
    const current = run([upserted(doomed), { type: "session/deleted", sessionId: "d" }]);
    expect(applySessions(current, [doomed], new Set(["d"])).sessions).toEqual([]);
  });

  it("ignores a fetched session that a frame changed after the fetch started, so a stale running state cannot come back", () => {
    const idle = session("a", "2026-11-30T08:00:00.000Z", "idle");
    const current = run([upserted(idle)]);
    expect(applyFetchedSession(current, { ...idle, state: "running" }, new Set(["a"]))).toBe(current);
    expect(applyFetchedSession(current, { ...idle, state: "running" }).sessions).toEqual([{ ...idle, state: "running" }]);
    expect(applyFetchedSession(initialSessionData, idle).sessions).toEqual([idle]);
  });

  it("does not bring back a fetched session that a frame deleted after the fetch started", () => {
    const idle = session("a", "2026-11-30T08:00:00.000Z", "idle");
    const deleted = run([upserted(idle), { type: "session/deleted", sessionId: "a" }]);
    expect(applyFetchedSession(deleted, idle, new Set(["a"]))).toBe(deleted);
    expect(deleted.sessions).toEqual([]);
  });
});

describe("session list pages", () => {
  it("orders by latest activity, so a chat that just got a message moves to the top", () => {
    const { state } = changeOlder({ updatedAt: "2026-11-30T10:00:00.000Z" });
    expect(state.sessions.map((item) => item.id)).toEqual(["a", "b"]);
  });

  it("keeps the first page's cursor and appends later pages without duplicates, keeping the held version", () => {
    const a = session("a", "2026-11-30T10:00:00.000Z");
    const b = session("b", "2026-11-30T09:00:00.000Z");
    const c = session("c", "2026-11-30T08:00:00.000Z");
    const first = applySessions(initialSessionData, [a, b], undefined, "cursor-1");
    expect(first.sessionsCursor).toBe("cursor-1");
    const renamed = applyFrame(first, upserted({ ...b, title: "Renamed" }));
    const second = applySessionsPage(renamed, [{ ...b, title: "Stale" }, c], null);
    expect(second.sessions).toEqual([a, { ...b, title: "Renamed" }, c]);
    expect(second.sessionsCursor).toBeNull();
  });

  it("does not bring back a session that was deleted while the page was in flight", () => {
    const a = session("a", "2026-11-30T10:00:00.000Z");
    const gone = session("gone", "2026-11-30T08:00:00.000Z");
    const state = applySessionsPage(applySessions(initialSessionData, [a], undefined, "c1"), [gone], "c2", new Set(["gone"]));
    expect(state.sessions).toEqual([a]);
    expect(state.sessionsCursor).toBe("c2");
  });

  it("resets the cursor when the first page is loaded again", () => {
    const a = session("a", "2026-11-30T10:00:00.000Z");
    expect(applySessions(applySessions(initialSessionData, [a], undefined, "c1"), [a]).sessionsCursor).toBeNull();
  });
});

describe("applyFrame: messages", () => {
  it("appends new messages in order and replaces an upserted one in place", () => {
    const state = run([
      posted(message("m1", "one")),
      posted(message("m2", "two")),
      posted(message("m1", "one, edited")),
    ]);
    expect(state.transcripts).toEqual({ "s-1": [message("m1", "one, edited"), message("m2", "two")] });
  });

  it("appends deltas to a streaming message and leaves every other message object untouched", () => {
    const before = run([
      posted(message("m1", "first")),
      posted(message("m2", "")),
    ]);
    const state = run(
      [
        { type: "message/delta", sessionId: "s-1", messageId: "m2", text: "Hel" },
        { type: "message/delta", sessionId: "s-1", messageId: "m2", text: "lo" },
      ],
      before,
    );
    expect(state.transcripts["s-1"]).toEqual([message("m1", "first"), message("m2", "Hello")]);
    expect(state.transcripts["s-1"]![0]).toBe(before.transcripts["s-1"]![0]);
  });

  it("starts an assistant message for a delta whose message was never upserted", () => {
    const state = run([{ type: "message/delta", sessionId: "s-1", messageId: "m9", text: "Hi" }]);
    expect(state.transcripts).toEqual({ "s-1": [{ id: "m9", sessionId: "s-1", role: "assistant", createdAt: "", text: "Hi" }] });
  });

  it("merges a fetched transcript: fetch first, messages changed live since the fetch started kept, unseen live messages after", () => {
    const live = run([
      posted(message("m2", "Hello wor")),
      posted(message("m3", "new")),
    ]);
    const state = applyTranscript(live, "s-1", [message("m1", "older"), message("m2", "Hello")], new Set(["m2", "m3"]));
    expect(state.transcripts["s-1"]).toEqual([message("m1", "older"), message("m2", "Hello wor"), message("m3", "new")]);
  });

  it("takes the fetched version of a message no frame touched since the fetch started", () => {
    const live = run([posted(message("m1", "stale copy"))]);
    const state = applyTranscript(live, "s-1", [message("m1", "final")]);
    expect(state.transcripts["s-1"]).toEqual([message("m1", "final")]);
  });
});
