import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { DownFrame, type Message, type QuestionRequestedFrame, type Receipt } from "../protocol/schemas";
import { createSessionStore, type SessionStore } from "../store/session-store";
import type { RunningServer } from "../host/server";
import { api, connect, createSession, startTestServer, type FrameClient } from "../testing/host/harness";
import { postgresBinDir, startTestPostgres, type TestPostgres } from "../testing/host/postgres";
import { mulberry32 } from "../testing/seeded-random";

const CLIENTS = 20;
const LIFECYCLES_PER_CLIENT = 10;
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 2 ** 31);
const WAIT_MS = 20_000;
const LABELS = ["Alpha", "Beta", "Gamma"];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => T | null | undefined | false, label: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label} (seed ${SEED})`);
    await sleep(3);
  }
}

/** A browser tab without the DOM: a real socket feeding the real store, cut and reopened at random. */
class ChaosTab {
  readonly store: SessionStore = createSessionStore();
  private socket: WebSocket | null = null;
  private reopening: Promise<void> | null = null;
  cuts = 0;

  /** `base` picks the host for each (re)open: in a cluster a tab comes back through any host. */
  constructor(
    private readonly base: () => string,
    private readonly random: () => number,
  ) {}

  open(): Promise<void> {
    const socket = new WebSocket(`${this.base().replace(/^http/, "ws")}/api/mux`);
    this.socket = socket;
    socket.on("message", (data: Buffer) => {
      if (this.socket === socket) this.store.getState().applyFrame(DownFrame.parse(JSON.parse(data.toString("utf8"))));
    });
    socket.on("close", () => {
      if (this.socket === socket) this.reopenSoon();
    });
    return new Promise((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
  }

  /** Terminates the socket without a closing handshake, as a dropped network does. */
  cut() {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    this.cuts++;
    socket.terminate();
  }

  private reopenSoon() {
    this.socket = null;
    this.reopening ??= (async () => {
      await sleep(Math.floor(this.random() * 20));
      await this.open();
      this.reopening = null;
    })();
  }

  async settled() {
    while (this.reopening) await this.reopening;
  }

  held(sessionId: string) {
    return this.store.getState().pending[sessionId] ?? [];
  }

  async close() {
    await this.settled();
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }
}

interface Attempt {
  rpcId: string;
  body: Record<string, unknown>;
  receipt: Receipt;
}

/** One SQLite host, and (with Postgres binaries) three hosts on one Postgres, where tabs reopen and answers race through random hosts. */
const TOPOLOGIES = [{ name: "one SQLite host", hosts: 1 }, ...(postgresBinDir() === null ? [] : [{ name: "three hosts on one Postgres", hosts: 3 }])];

describe.each(TOPOLOGIES)(`chaos on $name: ${CLIENTS} tabs, ${CLIENTS * LIFECYCLES_PER_CLIENT} question lifecycles, sockets cut at random (seed ${SEED})`, ({ hosts: count }) => {
  let servers: RunningServer[] = [];
  let postgres: TestPostgres | null = null;
  let server: RunningServer;
  let observer: FrameClient;
  beforeAll(async () => {
    const options = { rateLimits: false, pingIntervalMs: 60_000, heartbeatIntervalMs: 600_000 } as const;
    if (count === 1) servers = [await startTestServer(options)];
    else {
      postgres = await startTestPostgres();
      const databaseUrl = await postgres.createDatabase();
      for (let index = 0; index < count; index++) servers.push(await startTestServer({ ...options, databaseUrl }));
    }
    server = servers[0]!;
    observer = await connect(server.url);
  }, 60_000);
  afterAll(async () => {
    await observer.close();
    for (const running of servers) await running.close();
    await postgres?.stop();
  });

  it("resolves every question exactly once, loses no answer, leaves no request held and duplicates no transcript row", { timeout: 180_000 }, async () => {
    const random = mulberry32(SEED);
    const chance = (p: number) => random() < p;
    const anyHost = () => servers[Math.floor(random() * servers.length)]!.url;
    const tabs = Array.from({ length: CLIENTS }, () => new ChaosTab(anyHost, random));
    await Promise.all(tabs.map((tab) => tab.open()));
    const sessions = await Promise.all(tabs.map((_, index) => createSession(server.url, `chaos ${index}`)));
    const attempts: Attempt[] = [];

    async function respond(rpcId: string, body: Record<string, unknown>) {
      const result = await api(anyHost(), "/api/respond", { json: body });
      expect(result.status).toBe(200);
      attempts.push({ rpcId, body, receipt: result.body as Receipt });
      return result.body as Receipt;
    }

    async function lifecycle(owner: number, round: number) {
      const tab = tabs[owner]!;
      const sessionId = sessions[owner]!;
      const questionId = `q-${owner}-${round}`;
      if (chance(0.2)) tab.cut();
      const ask = `/ask ${JSON.stringify({ questions: [{ id: questionId, question: `Round ${round}?`, options: LABELS.map((label) => ({ label })) }] })}`;
      for (;;) {
        const posted = await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: ask } });
        if (posted.status === 202) break;
        expect(posted.status).toBe(409);
        await sleep(5);
      }
      if (chance(0.2)) tab.cut();
      const entry = await until(() => tab.held(sessionId).find((held) => held.request.questions[0]!.id === questionId), `${questionId} to reach tab ${owner}`);
      const rpcId = entry.request.rpcId;
      if (chance(0.2)) tab.cut();
      const answer = { type: "answer", rpcId, sessionId, answers: [{ id: questionId, selected: [LABELS[Math.floor(random() * LABELS.length)]!] }] };
      const racer = chance(0.25) ? tabs[(owner + 1 + Math.floor(random() * (CLIENTS - 1))) % CLIENTS]! : null;
      const racerBody = chance(0.3)
        ? { type: "cancel", rpcId, sessionId }
        : { type: "answer", rpcId, sessionId, answers: [{ id: questionId, selected: [], custom: `from another tab ${round}` }] };
      const cutDuringPost = chance(0.2);
      await Promise.all([
        respond(rpcId, answer),
        racer ? until(() => racer.held(sessionId).some((held) => held.request.rpcId === rpcId) || !entryPending(rpcId), "the racer to see it").then(() => respond(rpcId, racerBody)) : null,
        cutDuringPost ? sleep(Math.floor(random() * 3)).then(() => tab.cut()) : null,
      ]);
      if (chance(0.2)) tab.cut();
      if (chance(0.2)) expect(await respond(rpcId, answer)).toEqual({ accepted: false, reason: "not-pending", detail: `question ${rpcId} is not pending (unknown, already answered, cancelled or aborted)` });
      await until(() => !tab.held(sessionId).some((held) => held.request.rpcId === rpcId), `${questionId} to leave tab ${owner}`);
    }

    function entryPending(rpcId: string) {
      return !observer.frames.some((frame) => frame.type === "question/resolved" && frame.rpcId === rpcId);
    }

    await Promise.all(
      tabs.map(async (_, owner) => {
        for (let round = 0; round < LIFECYCLES_PER_CLIENT; round++) await lifecycle(owner, round);
      }),
    );
    for (const sessionId of sessions) {
      await until(() => observer.frames.some((frame) => frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.state === "idle") && turnsDone(sessionId), `session ${sessionId} to finish`);
    }
    await Promise.all(tabs.map((tab) => tab.settled()));

    function turnsDone(sessionId: string) {
      const last = [...observer.frames].reverse().find((frame) => frame.type === "session/upserted" && frame.session.id === sessionId);
      return last?.type === "session/upserted" && last.session.state === "idle";
    }

    const requested = observer.frames.filter((frame): frame is QuestionRequestedFrame => frame.type === "question/requested");
    const resolved = observer.frames.filter((frame) => frame.type === "question/resolved");
    expect(requested).toHaveLength(CLIENTS * LIFECYCLES_PER_CLIENT);
    expect(new Set(requested.map((frame) => frame.rpcId)).size).toBe(requested.length);
    expect(resolved.map((frame) => frame.rpcId).sort()).toEqual(requested.map((frame) => frame.rpcId).sort());
    expect(tabs.reduce((sum, tab) => sum + tab.cuts, 0)).toBeGreaterThan(CLIENTS * LIFECYCLES_PER_CLIENT * 0.5);

    const winners = new Map<string, Attempt>();
    for (const attempt of attempts) {
      if (!attempt.receipt.accepted) {
        expect(attempt.receipt.reason).toBe("not-pending");
        continue;
      }
      expect(winners.has(attempt.rpcId)).toBe(false);
      winners.set(attempt.rpcId, attempt);
    }
    expect(winners.size).toBe(requested.length);
    for (const frame of resolved) expect(frame.outcome).toBe(winners.get(frame.rpcId)!.body.type === "cancel" ? "cancelled" : "answered");

    const byQuestionId = new Map(requested.map((frame) => [frame.questions[0]!.id, winners.get(frame.rpcId)!]));
    for (const [owner, sessionId] of sessions.entries()) {
      const detail = (await api(server.url, `/api/sessions/${sessionId}`)).body as { messages: Message[] };
      expect(new Set(detail.messages.map((message) => message.id)).size).toBe(detail.messages.length);
      const toolRows = detail.messages.filter((message) => message.role === "tool");
      expect(toolRows.map((row) => row.tool!.args)).toEqual(
        Array.from({ length: LIFECYCLES_PER_CLIENT }, (_, round) => ({ questions: [{ id: `q-${owner}-${round}`, question: `Round ${round}?`, options: LABELS.map((label) => ({ label })) }] })),
      );
      for (const row of toolRows) {
        const questionId = (row.tool!.args as { questions: { id: string }[] }).questions[0]!.id;
        const winner = byQuestionId.get(questionId)!;
        if (winner.body.type === "cancel") {
          expect([row.tool!.status, row.tool!.error?.code]).toEqual(["error", "ASK_CANCELLED"]);
        } else {
          expect([row.tool!.status, row.tool!.result]).toEqual(["ok", JSON.stringify({ answers: winner.body.answers })]);
        }
      }
      const tab = tabs[owner]!;
      tab.store.getState().loadTranscript(sessionId, detail.messages);
      const held = tab.store.getState().transcripts[sessionId]!;
      expect(new Set(held.map((message) => message.id)).size).toBe(held.length);
      expect(held.map((message) => message.id)).toEqual(detail.messages.map((message) => message.id));
    }
    for (const tab of tabs) expect(tab.store.getState().pending).toEqual({});
    await Promise.all(tabs.map((tab) => tab.close()));
  });
});
