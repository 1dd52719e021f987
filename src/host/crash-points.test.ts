import Database from "better-sqlite3";
import fc from "fast-check";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { MessageDeltaFrame, type Message, type QuestionRequestedFrame } from "../protocol/schemas";
import { STREAM_FLUSH_MS } from "./agents/parley-agent";
import { DATABASE_FILE } from "./store";
import { api, connect, createSession, type FrameClient } from "../testing/host/harness";
import { removeDataDir, startHostProcess, type HostProcess } from "../testing/host/host-process";
import { postgresBinDir } from "../testing/host/postgres";
import { useTestPostgres } from "../testing/host/postgres-suite";

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 1);
const CHUNK_MS = 1000;
const LONG_TEXT = "The first third of a long reply. The second third arrives later. The last third never does.";
type CrashPoint = "streaming" | "question-pending" | "answer-accepted";

const hosts: HostProcess[] = [];
afterAll(async () => {
  for (const host of hosts) await host.kill("SIGKILL");
  if (hosts[0]) removeDataDir(hosts[0].dataDir);
});

function integrity(dataDir: string): string {
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

async function transcript(url: string, sessionId: string): Promise<Message[]> {
  return ((await api(url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
}

describe(`kill -9 at random points of a turn (CRASH_SEED=${SEED})`, () => {
  it("[transcript-interrupted] restarts on the same data dir with a sound database, no duplicated row, every unfinished row marked and the chat usable", { timeout: 60_000 + ROUNDS * 20_000 }, async () => {
    const points = fc.sample(fc.constantFrom<CrashPoint>("streaming", "question-pending", "answer-accepted"), { numRuns: ROUNDS, seed: SEED });
    const order: CrashPoint[] = [...new Set<CrashPoint>(["streaming", "question-pending", "answer-accepted"]), ...points];
    let host = await startHostProcess({ env: { PARLEY_SCRIPTED_CHUNK_MS: String(CHUNK_MS) } });
    hosts.push(host);
    for (const [round, point] of order.entries()) {
      const client = await connect(host.url);
      const sessionId = await createSession(host.url);
      let seen = "";
      if (point === "streaming") {
        await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/echo ${LONG_TEXT}` } });
        const deltas = () => client.frames.flatMap((frame) => (frame.type === "message/delta" ? [frame.text] : []));
        await client.waitFor(() => deltas().length === 3, "the third delta");
        seen = deltas().join("");
        await new Promise((resolve) => setTimeout(resolve, 150));
      } else {
        const ask = { questions: [{ id: "constructor", question: "Keep going?", options: [{ label: "Yes" }, { label: "No" }] }] };
        await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify(ask)}` } });
        const asked = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
        if (point === "answer-accepted") {
          const receipt = await api(host.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "constructor", selected: ["Yes"] }] } });
          expect(receipt.body).toEqual({ accepted: true });
        }
      }
      expect(await host.kill("SIGKILL")).toBe("SIGKILL");
      await client.closed;
      expect(integrity(host.dataDir)).toBe("ok");

      host = await startHostProcess({ dataDir: host.dataDir, env: { PARLEY_SCRIPTED_CHUNK_MS: "0" } });
      hosts.push(host);
      const rows = await transcript(host.url, sessionId);
      expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
      expect(rows.filter((row) => row.tool?.status === "running")).toEqual([]);
      const session = ((await api(host.url, `/api/sessions/${sessionId}`)).body as { session: { state: string } }).session;
      expect(session.state).toBe("idle");
      if (point === "streaming") {
        const reply = rows.find((row) => row.role === "assistant");
        expect(reply?.interrupted, JSON.stringify(rows)).toBe(true);
        expect(reply!.text!.length).toBeGreaterThan(0);
        expect(seen.startsWith(reply!.text!), `${JSON.stringify(reply!.text)} is not a prefix of ${JSON.stringify(seen)}`).toBe(true);
      } else {
        const toolRow = rows.find((row) => row.role === "tool")!;
        const tool = toolRow.tool!;
        if (tool.status === "stopped") expect({ code: tool.error?.code, interrupted: toolRow.interrupted }).toEqual({ code: "ASK_ABORTED", interrupted: true });
        else expect({ point, status: tool.status, result: tool.result }).toEqual({ point: "answer-accepted", status: "ok", result: '{"answers":[{"id":"constructor","selected":["Yes"]}]}' });
      }
      const usable = await connect(host.url);
      const from = usable.frames.length;
      await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo still here" } });
      await usable.waitTurnEnd(sessionId, from);
      expect((await transcript(host.url, sessionId)).at(-1)).toMatchObject({ role: "assistant", text: "still here" });
      await usable.close();
      if (round < order.length - 1) {
        await host.kill("SIGTERM");
        host = await startHostProcess({ dataDir: host.dataDir, env: { PARLEY_SCRIPTED_CHUNK_MS: String(CHUNK_MS) } });
        hosts.push(host);
      }
    }
  });
});

/** How much later the test may see one frame than another, against when the host sent them, on a loaded machine. */
const JITTER_MS = 400;
/** The long pause of a mid-pause kill: the kill comes a flush interval (and the jitter) into it, long before it ends. */
const STALL_MS = 6000;
/** A killed Postgres host's rows are adopted once its lease runs out: a short lease keeps the restart quick. */
const LEASE_S = 2;
const WORDS = ["tide", "lantern", "ship's", "流れ", "👋🏽", "β-decay", "`code`", "**bold**", "42", "über"];

/** Killed while words arrive (after `shown` of them and a flush interval), or in a long pause after word `stallAfter`. */
type KillMoment = "mid-run" | "mid-pause";
interface StreamPlan {
  moment: KillMoment;
  /** The pause after each word, in ms. */
  pause: number;
  shown: number;
  stallAfter: number;
  text: string;
}

/** Each kill moment CRASH_ROUNDS times, in turn, all drawn from CRASH_SEED. */
function streamPlans(seed: number): StreamPlan[] {
  const plan = (moment: KillMoment) =>
    fc.record({
      moment: fc.constant(moment),
      pause: fc.integer({ min: 120, max: 250 }),
      shown: fc.integer({ min: 3, max: 10 }),
      stallAfter: fc.integer({ min: 1, max: 6 }),
      text: fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(" ", "  ", "\n")), { minLength: 48, maxLength: 64 }).map((pairs) => pairs.flat().slice(0, -1).join("")),
    });
  return fc.sample(fc.tuple(plan("mid-run"), plan("mid-pause")), { numRuns: ROUNDS, seed }).flat();
}

function pausesOf(plan: StreamPlan): string {
  return plan.moment === "mid-run" ? String(plan.pause) : [...Array<number>(plan.stallAfter).fill(plan.pause), STALL_MS].join(",");
}

/** The reply row as the store holds it, read beside the host. */
interface StoredReply {
  text: string;
  streaming: boolean;
  interrupted: boolean;
}

interface StreamStore {
  /** The environment of every host process on this store. */
  env(): Record<string, string>;
  reply(dataDir: string, messageId: string): Promise<StoredReply | undefined>;
}

const SELECT_REPLY = "SELECT text, streaming, interrupted FROM messages WHERE id = ";

function sqliteStore(): StreamStore {
  return {
    env: () => ({}),
    async reply(dataDir, messageId) {
      const db = new Database(path.join(dataDir, DATABASE_FILE));
      try {
        const row = db.prepare(`${SELECT_REPLY}?`).get(messageId) as { text: string; streaming: number; interrupted: number } | undefined;
        return row && { text: row.text, streaming: row.streaming === 1, interrupted: row.interrupted === 1 };
      } finally {
        db.close();
      }
    },
  };
}

function postgresStore(databaseUrl: string): StreamStore {
  return {
    env: () => ({ PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: String(LEASE_S) }),
    async reply(_dataDir, messageId) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query<StoredReply>(`${SELECT_REPLY}$1`, [messageId])).rows[0];
      } finally {
        await client.end();
      }
    },
  };
}

interface Shown {
  text: string;
  /** When the test saw it, on its own clock. */
  at: number;
}

/** The session's `message/delta` frames as they arrive on the socket, each with when it arrived. */
function watchDeltas(client: FrameClient, sessionId: string) {
  const shown: Shown[] = [];
  let messageId = "";
  const checks = new Set<() => void>();
  client.socket.on("message", (data: Buffer) => {
    const frame = MessageDeltaFrame.safeParse(JSON.parse(data.toString("utf8")));
    if (!frame.success || frame.data.sessionId !== sessionId) return;
    messageId = frame.data.messageId;
    shown.push({ text: frame.data.text, at: performance.now() });
    for (const check of [...checks]) check();
  });
  return {
    shown,
    messageId: () => messageId,
    text: (count = shown.length) => shown.slice(0, count).map((delta) => delta.text).join(""),
    /** Resolves on the first delta after which `condition` holds. */
    until(condition: () => boolean, label: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          checks.delete(check);
          reject(new Error(`timed out waiting for ${label}; saw ${shown.length} deltas`));
        }, 20_000);
        const check = () => {
          if (!condition()) return;
          checks.delete(check);
          clearTimeout(timer);
          resolve();
        };
        checks.add(check);
        check();
      });
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * One kill -9 mid-stream on `host`: posts a reply that streams slowly, kills the host at the plan's moment, restarts it on the
 * same data and checks the reply row; resolves with the restarted host.
 */
async function killMidStream(plan: StreamPlan, host: HostProcess, store: StreamStore, started: HostProcess[]): Promise<HostProcess> {
  const client = await connect(host.url);
  await client.waitFor((frame) => frame.type === "synced");
  const sessionId = await createSession(host.url);
  const deltas = watchDeltas(client, sessionId);
  const posted = await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/stream ${pausesOf(plan)} ${plan.text}` } });
  expect(posted.status).toBe(202);

  /** What the row must hold after the crash: the text the host must have written before it was killed. */
  let kept: string;
  if (plan.moment === "mid-run") {
    const sinceFirst = (delta: Shown) => delta.at - deltas.shown[0]!.at;
    // By a delta seen a flush interval (and the jitter) after the first, the host has begun its first write; by the next, it has ended.
    const flushed = () => {
      const late = deltas.shown.findIndex((delta) => sinceFirst(delta) >= STREAM_FLUSH_MS + JITTER_MS);
      return late >= 0 && deltas.shown.length >= late + 2;
    };
    await deltas.until(() => deltas.shown.length >= plan.shown && flushed(), `${plan.shown} deltas and a flush`);
    // That first write came no sooner than a flush interval after the first delta, so it holds every delta seen well before then.
    kept = deltas.text(deltas.shown.filter((delta) => sinceFirst(delta) < STREAM_FLUSH_MS - JITTER_MS).length);
  } else {
    await deltas.until(() => deltas.shown.length > plan.stallAfter, `the word before the pause`);
    await sleep(deltas.shown[plan.stallAfter]!.at + STREAM_FLUSH_MS + JITTER_MS - performance.now());
    expect(deltas.shown.length, "a delta arrived in the pause").toBe(plan.stallAfter + 1);
    // Every word was shown more than a flush interval ago: all of them are kept.
    kept = deltas.text();
  }
  const messageId = deltas.messageId();
  const before = await store.reply(host.dataDir, messageId);
  expect(before?.streaming, "the reply is still streaming when the host is killed").toBe(true);
  expect(await host.kill("SIGKILL")).toBe("SIGKILL");
  await client.closed;
  const shown = deltas.text();
  expect(shown.length, "the reply was cut short").toBeLessThan(plan.text.length);

  const restarted = await startHostProcess({ dataDir: host.dataDir, env: store.env() });
  started.push(restarted);
  const watcher = await connect(restarted.url);
  try {
    await watcher.waitFor((frame) => frame.type === "synced");
    const state = ((await api(restarted.url, `/api/sessions/${sessionId}`)).body as { session: { state: string } }).session.state;
    // On Postgres the new host adopts the killed host's rows once its lease has run out, and publishes the session idle.
    if (state !== "idle") await watcher.waitIdle(sessionId, 0);

    const after = await store.reply(restarted.dataDir, messageId);
    const context = JSON.stringify({ plan: { ...plan, text: undefined }, kept, flushedBeforeKill: before?.text, shown, stored: after?.text });
    expect(after, context).toMatchObject({ streaming: false, interrupted: true });
    expect(after!.text.length, context).toBeGreaterThan(0);
    expect(plan.text.startsWith(after!.text), `the stored text is not a prefix of the reply: ${context}`).toBe(true);
    expect(before!.text.startsWith(kept), `text shown over a flush interval before the kill was not written: ${context}`).toBe(true);
    expect(after!.text.startsWith(before!.text), `text written before the kill was lost: ${context}`).toBe(true);
    if (plan.moment === "mid-pause") expect(after!.text, context).toBe(shown);

    const rows = await transcript(restarted.url, sessionId);
    expect(rows.find((row) => row.id === messageId), context).toMatchObject({ role: "assistant", text: after!.text, interrupted: true });
    expect(((await api(restarted.url, `/api/sessions/${sessionId}`)).body as { session: { state: string } }).session.state).toBe("idle");
    const from = watcher.frames.length;
    const reply = await api(restarted.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo still here" } });
    expect(reply.status).toBe(202);
    await watcher.waitTurnEnd(sessionId, from);
    expect((await transcript(restarted.url, sessionId)).at(-1)).toMatchObject({ role: "assistant", text: "still here" });
  } finally {
    await watcher.close();
  }
  return restarted;
}

function killsMidStream(name: string, openStore: () => Promise<StreamStore>) {
  const plans = streamPlans(SEED);
  const started: HostProcess[] = [];
  afterEach(async () => {
    for (const host of started.splice(0)) {
      await host.kill("SIGKILL");
      removeDataDir(host.dataDir);
    }
  });

  it(`keeps a reply's text flushed before a kill -9 mid-stream, interrupted, and the chat usable (${name}: ${plans.map((plan) => plan.moment).join(", ")})`, { timeout: 30_000 + plans.length * 30_000 }, async () => {
    const store = await openStore();
    let host = await startHostProcess({ env: store.env() });
    started.push(host);
    for (const plan of plans) host = await killMidStream(plan, host, store, started);
  });
}

describe(`kill -9 in the middle of a streamed reply (CRASH_SEED=${SEED})`, () => {
  describe("on SQLite", () => {
    killsMidStream("SQLite", () => Promise.resolve(sqliteStore()));
  });

  describe.skipIf(postgresBinDir() === null)("on Postgres", () => {
    const postgres = useTestPostgres();
    killsMidStream("Postgres", async () => postgresStore(await postgres().createDatabase()));
  });
});
