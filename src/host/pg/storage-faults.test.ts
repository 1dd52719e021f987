import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Message, QuestionRequestedFrame, Session } from "../../protocol/schemas";
import { api, connect, type FrameClient } from "../../testing/host/harness";
import { removeDataDir, startHostProcess, type HostProcess } from "../../testing/host/host-process";
import { postgresBinDir, startTestPostgres, type TestPostgres } from "../../testing/host/postgres";

/** Replays a run: `PG_FAULT_SEED=<seed> npx vitest run src/host/pg/storage-faults.test.ts`. */
const SEED = Number(process.env.PG_FAULT_SEED ?? Date.now() % 100_000);
const QUESTIONS = 6;

const askText = (id: string) => `/ask ${JSON.stringify({ questions: [{ id, question: `Keep ${id}?`, options: [{ label: "keep" }, { label: "drop" }] }] })}`;
const answerOf = (frame: QuestionRequestedFrame) => ({ type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: frame.questions[0]!.id, selected: ["keep"] }] });

async function until<T>(read: () => Promise<T | undefined>, label: string, timeoutMs = 30_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${label} (PG_FAULT_SEED=${SEED})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A response as the browser gets it, or the network error when the host could not be reached. */
async function respond(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return api(url, "/api/respond", { json: body }).catch((error: unknown) => ({ status: 0, body: String(error) }));
}

describe.skipIf(postgresBinDir() === null)(`answers while Postgres goes away (PG_FAULT_SEED=${SEED})`, () => {
  let postgres: TestPostgres;
  let host: HostProcess | null = null;
  /** Hosts a test starts besides `host`. */
  const extra: HostProcess[] = [];
  const sockets: FrameClient[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    for (const started of [host, ...extra.splice(0)]) {
      if (!started) continue;
      await started.kill("SIGKILL");
      removeDataDir(started.dataDir);
    }
    host = null;
    await postgres.startServer().catch(() => undefined);
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  async function startHost(): Promise<{ host: HostProcess; socket: FrameClient }> {
    const databaseUrl = await postgres.createDatabase();
    host = await startHostProcess({ env: { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: "15" } });
    const socket = await connect(host.url);
    sockets.push(socket);
    await socket.waitFor((frame) => frame.type === "synced");
    return { host, socket };
  }

  async function ask(url: string, socket: FrameClient, id: string): Promise<QuestionRequestedFrame> {
    const created = await api(url, "/api/sessions", { json: {} });
    const sessionId = (created.body as { session: Session }).session.id;
    expect((await api(url, `/api/sessions/${sessionId}/messages`, { json: { text: askText(id) } })).status).toBe(202);
    return socket.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId);
  }

  /** The session's tool rows once it is idle with none running, as a fresh read of the host gives them. */
  async function settledTools(url: string, sessionId: string) {
    return until(async () => {
      const detail = (await api(url, `/api/sessions/${sessionId}`)).body as { session: Session; messages: Message[] };
      const tools = detail.messages.filter((message) => message.role === "tool");
      return detail.session.state === "idle" && tools.every((message) => message.tool?.status !== "running") ? tools.map((message) => [message.tool?.status, message.tool?.result]) : undefined;
    }, `session ${sessionId} to settle`);
  }

  it("[respond-durable] refuses an answer with a STORAGE_* error while Postgres is down, keeps the question pending, and takes it once Postgres is back", { timeout: 120_000 }, async () => {
    const started = await startHost();
    const asked = await ask(started.host.url, started.socket, "down");
    await postgres.stopServer();
    const refused = await respond(started.host.url, answerOf(asked));
    expect(refused.status === 503 || refused.status === 500, JSON.stringify(refused)).toBe(true);
    expect((refused.body as { error: { code: string } }).error.code).toMatch(/^STORAGE_(BUSY|FAILED)$/);
    expect(started.socket.frames.filter((frame) => frame.type === "question/resolved")).toEqual([]);
    await postgres.startServer();
    await until(async () => ((await api(started.host.url, "/api/health")).status === 200 ? true : undefined), "health to come back");
    const replay = await connect(started.host.url);
    sockets.push(replay);
    await replay.waitFor((frame) => frame.type === "synced");
    expect(replay.frames.filter((frame) => frame.type === "question/requested").map((frame) => frame.type === "question/requested" && frame.rpcId)).toEqual([asked.rpcId]);
    expect((await respond(started.host.url, answerOf(asked))).body).toEqual({ accepted: true });
    expect(await settledTools(started.host.url, asked.sessionId)).toEqual([["ok", '{"answers":[{"id":"down","selected":["keep"]}]}']]);
  });

  it("[cluster-outage] a turn that ends on one host while Postgres is away leaves no other host showing its chat running", { timeout: 120_000 }, async () => {
    const databaseUrl = await postgres.createDatabase();
    const env = { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: "15" };
    const owner = await startHostProcess({ env });
    const other = await startHostProcess({ env });
    extra.push(owner, other);
    const watcher = await connect(other.url);
    sockets.push(watcher);
    await watcher.waitFor((frame) => frame.type === "synced");
    const created = await api(owner.url, "/api/sessions", { json: {} });
    const sessionId = (created.body as { session: Session }).session.id;
    expect((await api(owner.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/stream 300 one two three four five six seven eight" } })).status).toBe(202);
    await watcher.waitFor((frame) => frame.type === "message/delta" && frame.sessionId === sessionId, "the reply streaming, seen on the other host");
    expect(((await api(other.url, `/api/sessions/${sessionId}`)).body as { session: Session }).session.state).toBe("running");
    await postgres.stopServer();
    // The turn ends (failed: its reply could not be stored) while the database is away, and its idle state reaches no other host.
    await until(async () => (owner.logs.some((line) => (line.event === "turn/ended" || line.event === "turn/failed") && line.sessionId === sessionId) ? true : undefined), "the turn's end on its host");
    await postgres.startServer();
    for (const host of [owner, other]) await until(async () => ((await api(host.url, "/api/health")).status === 200 ? true : undefined), `${host.url} healthy again`);
    const state = await until(async () => {
      const read = ((await api(other.url, `/api/sessions/${sessionId}`)).body as { session: Session }).session.state;
      return read === "idle" ? read : undefined;
    }, "the chat idle on the other host");
    expect(state).toBe("idle");
    const posted = await until(async () => {
      const result = await api(other.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo after the outage" } });
      return result.status === 202 ? result : undefined;
    }, "the next message taken by the other host");
    expect(posted.status).toBe(202);
  });

  it(`[respond-durable] keeps every answer that got accepted: true when Postgres restarts (fast) at a seeded moment among ${QUESTIONS} answers`, { timeout: 180_000 }, async () => {
    const started = await startHost();
    const asked = [];
    for (let index = 0; index < QUESTIONS; index++) asked.push(await ask(started.host.url, started.socket, `q${index}`));
    const [restartAfter] = fc.sample(fc.integer({ min: 0, max: QUESTIONS - 1 }), { numRuns: 1, seed: SEED });
    const receipts: { status: number; body: unknown }[] = [];
    let restart: Promise<void> | null = null;
    for (const [index, frame] of asked.entries()) {
      if (index === restartAfter) restart = postgres.stopServer().then(() => postgres.startServer());
      receipts.push(await respond(started.host.url, answerOf(frame)));
    }
    await restart;
    await until(async () => ((await api(started.host.url, "/api/health")).status === 200 ? true : undefined), "health to come back");
    // An answer that was accepted is never asked again; one that was refused still waits, and is taken now.
    for (const [index, frame] of asked.entries()) {
      if ((receipts[index]!.body as { accepted?: boolean }).accepted === true) continue;
      expect(receipts[index]!.status === 503 || receipts[index]!.status === 500 || (receipts[index]!.body as { reason?: string }).reason === undefined, JSON.stringify(receipts[index])).toBe(true);
      const retried = await until(async () => {
        const receipt = await respond(started.host.url, answerOf(frame));
        return (receipt.body as { accepted?: boolean }).accepted === true ? receipt : undefined;
      }, `the refused answer ${index} to be taken`);
      expect(retried.body).toEqual({ accepted: true });
    }
    for (const [index, frame] of asked.entries()) expect(await settledTools(started.host.url, frame.sessionId), `question ${index}`).toEqual([["ok", `{"answers":[{"id":"q${index}","selected":["keep"]}]}`]]);
    const fresh = await connect(started.host.url);
    sockets.push(fresh);
    await fresh.waitFor((frame) => frame.type === "synced");
    expect(fresh.frames.filter((frame) => frame.type === "question/requested")).toEqual([]);
  });
});
