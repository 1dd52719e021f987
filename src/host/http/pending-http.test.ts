import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect as connectSocket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LogEntry } from "../log";
import type { Message, QuestionRequestedFrame, QuestionResolvedFrame } from "../../protocol/schemas";
import { api, connect, createSession, createTestHosts, startTestServer, type FrameClient } from "../../testing/host/harness";

const hosts = createTestHosts();
const { start, open } = hosts;
afterEach(() => hosts.closeAll());

const ASK = '/ask {"questions":[{"id":"a","question":"Pick one","options":[{"label":"x"},{"label":"y"}]}]}';

async function askAndWait(url: string, client: FrameClient, sessionId: string, text = ASK): Promise<QuestionRequestedFrame> {
  const response = await api(url, `/api/sessions/${sessionId}/messages`, { json: { text } });
  expect(response.status).toBe(202);
  return client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId, "question/requested");
}

function resolvedFor(client: FrameClient, rpcId: string): QuestionResolvedFrame[] {
  return client.frames.filter((frame): frame is QuestionResolvedFrame => frame.type === "question/resolved" && frame.rpcId === rpcId);
}

async function transcript(url: string, sessionId: string): Promise<Message[]> {
  return ((await api(url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
}

/** The body of the host's receipt for one POST /api/respond. */
async function respond(url: string, body: unknown): Promise<unknown> {
  return (await api(url, "/api/respond", { json: body })).body;
}

async function toolRow(url: string, sessionId: string) {
  return (await transcript(url, sessionId)).find((message) => message.role === "tool")?.tool;
}

/** A host, a synced socket and a fresh session with one question pending; `from` is the socket's frame count before the ask. */
async function pendingQuestion() {
  const server = await start();
  const client = await open(server.url);
  const id = await createSession(server.url);
  const from = client.frames.length;
  const requested = await askAndWait(server.url, client, id);
  return { server, client, id, from, requested };
}

describe("pending table over HTTP and sockets", { timeout: 30_000 }, () => {
  it("[mux-replay] replays every pending question on a new socket with the same rpcId and identical fields, oldest first, between hello and synced", async () => {
    const server = await start();
    const first = await open(server.url);
    const one = await createSession(server.url);
    const two = await createSession(server.url);
    const requestedOne = await askAndWait(server.url, first, one);
    const requestedTwo = await askAndWait(server.url, first, two, '/ask {"questions":[{"id":"b","question":"Name?"}]}');
    const late = await open(server.url);
    expect(late.frames).toEqual([{ type: "hello", protocol: 2, hostId: server.hostId, heartbeatMs: 15_000 }, requestedOne, requestedTwo, { type: "synced" }]);
    const beforeCancel = first.frames.length;
    expect(await respond(server.url, { type: "cancel", rpcId: requestedOne.rpcId, sessionId: one })).toEqual({ accepted: true });
    // The cancelled turn goes on to its reply; the next socket opens once it has ended, so it sees the replay alone.
    await first.waitIdle(one, beforeCancel);
    const afterCancel = await open(server.url);
    expect(afterCancel.frames).toEqual([{ type: "hello", protocol: 2, hostId: server.hostId, heartbeatMs: 15_000 }, requestedTwo, { type: "synced" }]);
  });

  it("sends question/requested to every open socket", async () => {
    const server = await start();
    const sockets = [await open(server.url), await open(server.url), await open(server.url)];
    const id = await createSession(server.url);
    const requested = await askAndWait(server.url, sockets[0]!, id);
    for (const socket of sockets) expect(await socket.waitFor((frame) => frame.type === "question/requested")).toEqual(requested);
  });

  for (const racers of [2, 4, 16]) {
    it(`gives exactly one acceptance to ${racers} concurrent valid answers, not-pending to the rest, and one question/resolved per socket, every time`, async () => {
      // Hundreds of answers in a few seconds would trip the per-client limiter, which rate-limit.test.ts covers.
      const server = await start({ rateLimits: false });
      const sockets = [await open(server.url), await open(server.url), await open(server.url)];
      for (let round = 0; round < 15; round++) {
        const id = await createSession(server.url);
        const from = sockets.map((socket) => socket.frames.length);
        const requested = await askAndWait(server.url, sockets[0]!, id, '/ask {"questions":[{"id":"a","question":"Say something"}]}');
        await Promise.all(sockets.map((socket) => socket.waitFor((frame) => frame.type === "question/requested" && frame.rpcId === requested.rpcId)));
        const receipts = await Promise.all(
          Array.from({ length: racers }, (_, index) =>
            api(server.url, "/api/respond", {
              json: { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "a", selected: [], custom: `answer ${index}` }] },
            }).then((result) => result.body as { accepted: boolean; reason?: string }),
          ),
        );
        const winners = receipts.flatMap((receipt, index) => (receipt.accepted ? [index] : []));
        expect(winners.length).toBe(1);
        expect(receipts.filter((receipt) => !receipt.accepted).map((receipt) => receipt.reason)).toEqual(Array(racers - 1).fill("not-pending"));
        await Promise.all(sockets.map((socket, index) => socket.waitTurnEnd(id, from[index]!)));
        for (const socket of sockets) expect(resolvedFor(socket, requested.rpcId)).toEqual([{ type: "question/resolved", rpcId: requested.rpcId, sessionId: id, outcome: "answered" }]);
        const reply = (await transcript(server.url, id)).at(-1);
        expect(reply?.text).toBe(`Answers: {"answers":[{"id":"a","selected":[],"custom":"answer ${winners[0]}"}]}`);
      }
    });
  }

  it("answers a late answer and a late cancel with not-pending", async () => {
    const { server, client, id, requested } = await pendingQuestion();
    const answer = { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "a", selected: ["x"] }] };
    expect(await respond(server.url, answer)).toEqual({ accepted: true });
    const notPending = { accepted: false, reason: "not-pending", detail: `question ${requested.rpcId} is not pending (unknown, already answered, cancelled or aborted)` };
    expect(await respond(server.url, answer)).toEqual(notPending);
    expect(await respond(server.url, { type: "cancel", rpcId: requested.rpcId, sessionId: id })).toEqual(notPending);

    const second = await createSession(server.url);
    const cancelled = await askAndWait(server.url, client, second);
    expect(await respond(server.url, { type: "cancel", rpcId: cancelled.rpcId, sessionId: second })).toEqual({ accepted: true });
    expect(await respond(server.url, { type: "answer", rpcId: cancelled.rpcId, sessionId: second, answers: [{ id: "a", selected: ["x"] }] })).toMatchObject({ accepted: false, reason: "not-pending" });
  });

  it("keeps a question pending and answerable after a bad response, and after one for the wrong session", async () => {
    const { server, client, id, requested } = await pendingQuestion();
    const other = await createSession(server.url);
    const answer = (sessionId: string, selected: string[]) => respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId, answers: [{ id: "a", selected }] });
    expect(await answer(id, ["x", "y"])).toEqual({ accepted: false, reason: "bad-response", detail: 'answers[0]: question "a" is single-select but 2 labels are selected' });
    expect(await answer(other, ["x"])).toEqual({ accepted: false, reason: "bad-response", detail: `question ${requested.rpcId} does not belong to session ${other}` });
    expect(resolvedFor(client, requested.rpcId)).toEqual([]);
    const replayed = await open(server.url);
    expect(replayed.frames).toContainEqual(requested);
    expect(await answer(id, ["y"])).toEqual({ accepted: true });
  });

  it("settles a cancel as tool error ASK_CANCELLED with outcome cancelled", async () => {
    const { server, client, id, from, requested } = await pendingQuestion();
    await respond(server.url, { type: "cancel", rpcId: requested.rpcId, sessionId: id });
    await client.waitTurnEnd(id, from);
    expect(resolvedFor(client, requested.rpcId).map((frame) => frame.outcome)).toEqual(["cancelled"]);
    const tool = await toolRow(server.url, id);
    expect([tool?.status, tool?.error]).toEqual(["error", { name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" }]);
  });

  it("settles an abort as tool error ASK_ABORTED with outcome aborted and a stopped tool row", async () => {
    const { server, client, id, from, requested } = await pendingQuestion();
    expect((await api(server.url, `/api/sessions/${id}/abort`, { method: "POST" })).body).toEqual({ aborted: true });
    await client.waitTurnEnd(id, from);
    expect(resolvedFor(client, requested.rpcId).map((frame) => frame.outcome)).toEqual(["aborted"]);
    const tool = await toolRow(server.url, id);
    expect([tool?.status, tool?.error]).toEqual([
      "stopped",
      { name: "UserInteractionError", code: "ASK_ABORTED", message: "ask_user_question was aborted before the user answered" },
    ]);
    expect(await respond(server.url, { type: "cancel", rpcId: requested.rpcId, sessionId: id })).toMatchObject({ reason: "not-pending" });
  });

  it("aborts the pending question when its session is deleted", async () => {
    const { server, client, id, requested } = await pendingQuestion();
    expect((await api(server.url, `/api/sessions/${id}`, { method: "DELETE" })).status).toBe(204);
    await client.waitFor((frame) => frame.type === "session/deleted" && frame.sessionId === id);
    const resolvedAt = client.frames.findIndex((frame) => frame.type === "question/resolved" && frame.rpcId === requested.rpcId);
    const deletedAt = client.frames.findIndex((frame) => frame.type === "session/deleted");
    expect(resolvedFor(client, requested.rpcId).map((frame) => frame.outcome)).toEqual(["aborted"]);
    expect(resolvedAt).toBeLessThan(deletedAt);
  });

  it("settles pending questions on shutdown with outcome aborted and ASK_ABORTED 'web user-interaction provider was disposed'", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-host-"));
    try {
      const server = await startTestServer({ dataDir });
      const client = await connect(server.url);
      const id = await createSession(server.url);
      const requested = await askAndWait(server.url, client, id);
      await server.close();
      expect((await client.closed).code).toBe(1001);
      expect(resolvedFor(client, requested.rpcId)).toEqual([{ type: "question/resolved", rpcId: requested.rpcId, sessionId: id, outcome: "aborted" }]);
      const again = await start({ dataDir });
      const tool = await toolRow(again.url, id);
      expect([tool?.status, tool?.error]).toEqual(["stopped", { name: "UserInteractionError", code: "ASK_ABORTED", message: "web user-interaction provider was disposed" }]);
      const replay = await open(again.url);
      expect(replay.frames.map((frame) => frame.type)).toEqual(["hello", "synced"]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("logs a client that goes away mid-body as gone, not as a host failure, and the question stays pending", async () => {
    const logs: LogEntry[] = [];
    const { server, client } = await hosts.startSynced({ log: (entry) => void logs.push(entry) });
    const id = await createSession(server.url);
    const requested = await askAndWait(server.url, client, id);
    const { port } = new URL(server.url);
    const socket = connectSocket(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const body = JSON.stringify({ type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "a", selected: ["x"] }] });
    socket.write(`POST /api/respond HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`, () => socket.destroy());
    await vi.waitFor(() => expect(logs.filter((entry) => entry.event === "http/client-gone")).toEqual([{ event: "http/client-gone", path: "/api/respond" }]));
    expect(logs.filter((entry) => entry.event === "http/failed")).toEqual([]);
    expect(await respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "a", selected: ["y"] }] })).toEqual({ accepted: true });
  });
});
