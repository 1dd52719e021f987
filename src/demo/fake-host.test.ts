import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConnectionStatus } from "../client/mux";
import type { AnswerRequest, DownFrame, PendingRequest, Session } from "../protocol/schemas";
import { createFakeHost } from "./fake-host";
import { NETWORK_ERROR_MESSAGE, SLOW_REPLY_MS, type FakeOutcome } from "./fake-respond";
import type { DemoReply } from "./stories";

const AT = "2026-01-15T09:30:00.000Z";
const session: Session = { id: "demo-session", title: "Demo", createdAt: AT, updatedAt: AT, state: "idle" };
const request: PendingRequest = {
  rpcId: "rpc-1",
  sessionId: "demo-session",
  createdAt: AT,
  questions: [
    { id: "pkg", question: "Which?", options: [{ label: "pnpm" }, { label: "npm" }] },
    { id: "name", question: "Name?" },
  ],
};
const answer: AnswerRequest = {
  type: "answer",
  rpcId: "rpc-1",
  sessionId: "demo-session",
  answers: [
    { id: "pkg", selected: ["pnpm"] },
    { id: "name", selected: [], custom: "Parley" },
  ],
};
const at = (state: Session["state"]): DownFrame => ({ type: "session/upserted", session: { ...session, state } });
const toolRow = { id: "demo-tool-rpc-1", sessionId: "demo-session", role: "tool", createdAt: AT } as const;
const toolCall = { callId: "call-rpc-1", name: "ask_user_question", args: { questions: request.questions } } as const;

function start(reply: DemoReply = "accept") {
  let current = reply;
  const outcomes: FakeOutcome[] = [];
  const host = createFakeHost({
    sessions: [session],
    reply: () => current,
    now: () => AT,
    observer: { sent: () => undefined, settled: (_id, outcome) => outcomes.push(outcome) },
  });
  const frames: DownFrame[] = [];
  const statuses: ConnectionStatus[] = [];
  const connection = host.connect({ url: "demo", onFrame: (frame) => frames.push(frame), onStatus: (status) => statuses.push(status) });
  return { host, frames, statuses, connection, outcomes, setReply: (next: DemoReply) => (current = next) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe("createFakeHost", () => {
  it("opens like the host: hello, the replay of what is pending, synced, each after the call that opened it", async () => {
    const { host, frames, statuses } = start();
    host.ask(request);
    expect(frames).toEqual([]);
    await settle();
    expect(statuses).toEqual(["connecting", "online"]);
    expect(frames).toEqual([
      { type: "hello", protocol: 2, hostId: expect.stringMatching(/^demo-host-\d+$/) },
      { type: "synced" },
      at("running"),
      { type: "message/upserted", message: { ...toolRow, tool: { ...toolCall, status: "running" } } },
      at("waiting"),
      { type: "question/requested", ...request },
    ]);
    const late: DownFrame[] = [];
    host.connect({ url: "demo", onFrame: (frame) => late.push(frame) });
    await settle();
    expect(late).toEqual([{ type: "hello", protocol: 2, hostId: expect.any(String) }, { type: "question/requested", ...request }, { type: "synced" }]);
  });

  it("claims a valid answer, broadcasts question/resolved, finishes the tool row, and then refuses the same answer as not-pending", async () => {
    const { host, frames, outcomes } = start();
    host.ask(request);
    await settle();
    frames.length = 0;
    expect(await host.api.respond(answer)).toEqual({ accepted: true });
    await settle();
    expect(frames).toEqual([
      { type: "question/resolved", rpcId: "rpc-1", sessionId: "demo-session", outcome: "answered" },
      at("running"),
      {
        type: "message/upserted",
        message: {
          ...toolRow,
          tool: { ...toolCall, status: "ok", result: JSON.stringify({ answers: answer.answers }), outcome: { kind: "answered", answers: answer.answers } },
        },
      },
      at("idle"),
    ]);
    const again = { accepted: false, reason: "not-pending", detail: "question rpc-1 is not pending (unknown, already answered, cancelled or aborted)" };
    expect(await host.api.respond(answer)).toEqual(again);
    expect(outcomes).toEqual([{ kind: "receipt", receipt: { accepted: true } }, { kind: "receipt", receipt: again }]);
  });

  it("refuses an answer that breaks an answer rule with the host's sentence and keeps the question", async () => {
    const { host } = start();
    host.ask(request);
    expect(await host.api.respond({ ...answer, answers: [answer.answers[1]!, answer.answers[0]!] })).toEqual({
      accepted: false,
      reason: "bad-response",
      detail: 'answers[0]: id "name" does not match question "pkg" at this position',
    });
    expect(await host.api.respond({ type: "cancel", rpcId: "rpc-1", sessionId: "demo-session" })).toEqual({ accepted: true });
  });

  it("reaches the host's own refusals with the forced replies, and accepts once the reply is accept again", async () => {
    const { host, setReply } = start("not-pending");
    host.ask(request);
    expect(await host.api.respond(answer)).toEqual({
      accepted: false,
      reason: "not-pending",
      detail: "question rpc-1 is not pending (unknown, already answered, cancelled or aborted)",
    });
    setReply("bad-response");
    expect(await host.api.respond(answer)).toEqual({ accepted: false, reason: "bad-response", detail: "question rpc-1 does not belong to session demo-session" });
    setReply("accept");
    expect(await host.api.respond(answer)).toEqual({ accepted: true });
  });

  it("fails the request like fetch does when set to network error, and answers after 3 s when set to slow", async () => {
    const { host, setReply, outcomes } = start("network-error");
    host.ask(request);
    await expect(host.api.respond(answer)).rejects.toEqual(new TypeError(NETWORK_ERROR_MESSAGE));
    setReply("slow");
    vi.useFakeTimers();
    let receipt: unknown = null;
    void host.api.respond(answer).then((value) => (receipt = value));
    await vi.advanceTimersByTimeAsync(SLOW_REPLY_MS - 1);
    expect(receipt).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(receipt).toEqual({ accepted: true });
    expect(outcomes).toEqual([
      { kind: "network-error", message: "Failed to fetch" },
      { kind: "receipt", receipt: { accepted: true } },
    ]);
  });

  it("resolves a request answered in another tab with outcome answered", async () => {
    const { host, frames } = start();
    host.ask(request);
    await settle();
    frames.length = 0;
    host.resolveElsewhere("rpc-1", "answered");
    await settle();
    expect(frames[0]).toEqual({ type: "question/resolved", rpcId: "rpc-1", sessionId: "demo-session", outcome: "answered" });
  });

  it("restarts like a host: aborts what it holds, drops the socket, then says hello as a new host with nothing to replay", async () => {
    const { host, frames, statuses } = start();
    host.ask(request);
    await settle();
    const firstHello = frames[0];
    frames.length = 0;
    statuses.length = 0;
    host.restart();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(statuses).toEqual(["offline", "connecting", "online"]);
    expect(frames.map((frame) => frame.type)).toEqual(["question/resolved", "session/upserted", "message/upserted", "session/upserted", "hello", "synced"]);
    expect(frames[0]).toEqual({ type: "question/resolved", rpcId: "rpc-1", sessionId: "demo-session", outcome: "aborted" });
    expect(frames[4]).not.toEqual(firstHello);
  });

  it("answers NOT_FOUND for a session it does not hold", async () => {
    const { host } = start();
    await expect(host.api.getSession("nope")).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("starts with the transcripts and the health it is given, each row under its own session", async () => {
    const other: Session = { ...session, id: "other", title: "Other" };
    const rows = [
      { id: "m1", sessionId: "demo-session", role: "user", createdAt: AT, text: "Hi" },
      { id: "m2", sessionId: "other", role: "user", createdAt: AT, text: "Elsewhere" },
      { id: "m3", sessionId: "demo-session", role: "assistant", createdAt: AT, text: "Hello" },
    ] as const;
    const host = createFakeHost({ sessions: [session, other], messages: rows, health: { model: "scripted", mcp: [{ name: "notes", state: "ready", tools: 3 }] }, reply: () => "accept", now: () => AT });
    expect((await host.api.getSession("demo-session")).messages).toEqual([rows[0], rows[2]]);
    expect((await host.api.getSession("other")).messages).toEqual([rows[1]]);
    expect(await host.api.health()).toEqual({ ok: true, hostId: expect.stringMatching(/^demo-host-\d+$/), protocol: 2, model: "scripted", mcp: [{ name: "notes", state: "ready", tools: 3 }] });
    expect((await start().host.api.health()).model).toBe("demo");
  });

  it("delivers nothing to a closed connection", async () => {
    const { host, frames, connection } = start();
    connection.close();
    host.ask(request);
    await settle();
    expect(frames).toEqual([]);
  });
});

describe("the fake host's respond ids", () => {
  it("differ across runs, so the page's log never takes one run's outcome for another's entry", async () => {
    const ids: string[] = [];
    for (let run = 0; run < 2; run++) {
      const host = createFakeHost({ sessions: [session], reply: () => "accept", now: () => AT, observer: { sent: (id) => ids.push(id), settled: () => undefined } });
      host.connect({ url: "demo", onFrame: () => undefined, onStatus: () => undefined });
      host.ask(request);
      await settle();
      await host.api.respond(answer);
    }
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });
});
