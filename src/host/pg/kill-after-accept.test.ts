import fc from "fast-check";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Message, QuestionRequestedFrame, Session } from "../../protocol/schemas";
import { api, connect, until, type FrameClient } from "../../testing/host/harness";
import { removeDataDir, startHostProcess, type HostProcess } from "../../testing/host/host-process";
import { postgresBinDir, startTestPostgres, type TestPostgres } from "../../testing/host/postgres";

/** Replays a run: `KILL_SEED=<seed> npx vitest run src/host/pg/kill-after-accept.test.ts`. */
const SEED = Number(process.env.KILL_SEED ?? Date.now() % 100_000);
const ROUNDS = Number(process.env.KILL_ROUNDS ?? 6);
const LEASE_S = 2;
/** Within three lease periods of a host's death every live host agrees; plus slack for a loaded machine. */
const SETTLED_MS = 3 * LEASE_S * 1000 + 8000;
/** Delays after the accepted answer at which the owner dies: before it heard of the claim, while it writes, after. */
const DELAYS_MS = [0, 0, 1, 2, 5, 10, 20, 35, 50];
/**
 * Where on the owner's path it dies: a seeded delay after the answer was claimed, or as soon as another host has seen
 * the owner's frame of a step (the question resolved, the tool row written with the answer, the model's next reply).
 */
const STEPS = ["delay", "resolved", "tool-row", "reply"] as const;
type Step = (typeof STEPS)[number];

/** A seeded stream of numbers in [0, 1). */
function random(seed: number): () => number {
  const values = fc.sample(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { numRuns: 1000, seed });
  let index = 0;
  return () => values[index++ % values.length]!;
}

const askText = (id: string) => `/ask ${JSON.stringify({ questions: [{ id, question: `Ship ${id}?`, options: [{ label: "yes" }, { label: "no" }] }] })}`;

/** `until` with this suite's bound, naming its seed when it times out. */
const settled = <T>(read: () => Promise<T | undefined>, label: string, timeoutMs = SETTLED_MS) => until(read, `${label} (KILL_SEED=${SEED})`, timeoutMs);

/** How many lease rows `instance` has in the cluster's `hosts` table. */
async function leaseRows(databaseUrl: string, instance: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM hosts WHERE instance = $1", [instance])).rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe.skipIf(postgresBinDir() === null)(`an owner killed right after an answer was accepted through another host (KILL_SEED=${SEED})`, () => {
  let postgres: TestPostgres;
  let hosts: HostProcess[] = [];
  const sockets: FrameClient[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    for (const host of hosts) {
      if (host.alive()) host.child.kill("SIGCONT");
      await host.kill("SIGKILL");
      removeDataDir(host.dataDir);
    }
    hosts = [];
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  async function observe(url: string): Promise<FrameClient> {
    const socket = await connect(url);
    sockets.push(socket);
    await socket.waitFor((frame) => frame.type === "synced");
    return socket;
  }

  /**
   * A fresh database with two hosts: the owner, with the test's short lease, and a live host whose own lease outlasts the
   * test (frozen while the owner's runs out, a host started then adopts first); a socket watches the live host.
   */
  async function ownerAndLiveHost() {
    const databaseUrl = await postgres.createDatabase();
    const owner = await startHostProcess({ env: { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: String(LEASE_S) } });
    const live = await startHostProcess({ env: { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: "60" } });
    hosts.push(owner, live);
    return { databaseUrl, owner, live, watcher: await observe(live.url) };
  }

  it(`[cluster-adopt] keeps every accepted answer in the transcript of every live host, once, and leaves no ghost: ${ROUNDS} seeded rounds`, { timeout: 60_000 + ROUNDS * 45_000 }, async () => {
    const next = random(SEED);
    const databaseUrl = await postgres.createDatabase();
    const env = { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: String(LEASE_S) };
    hosts.push(await startHostProcess({ env }));
    hosts.push(...(await Promise.all([0, 1].map(() => startHostProcess({ env })))));

    /** Rounds whose owner died before it wrote the answer itself, so adoption wrote it (logged to show the suite reaches that path). */
    let interrupted = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const owner = hosts[Math.floor(next() * hosts.length)]!;
      const others = hosts.filter((host) => host !== owner);
      const answerer = others[Math.floor(next() * others.length)]!;
      const stop = next() < 0.25;
      const delay = DELAYS_MS[Math.floor(next() * DELAYS_MS.length)]!;
      const step: Step = STEPS[Math.floor(next() * STEPS.length)]!;
      const when = step === "delay" ? `${delay} ms after the accepted answer` : `once the owner's ${step} frame arrived elsewhere`;
      const label = `round ${round}: ${stop ? "SIGSTOP past the lease" : "kill -9"} ${when}`;
      const watchers = await Promise.all(others.map((host) => observe(host.url)));
      const ownerInstance = ((await api(owner.url, "/api/health")).body as { cluster: { instance: string } }).cluster.instance;

      const created = await api(owner.url, "/api/sessions", { json: {} });
      const sessionId = (created.body as { session: Session }).session.id;
      expect((await api(owner.url, `/api/sessions/${sessionId}/messages`, { json: { text: askText(`k${round}`) } })).status).toBe(202);
      const asked = await watchers[others.indexOf(answerer)]!.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId);
      const answer = { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: `k${round}`, selected: ["yes"] }] };
      expect((await api(answerer.url, "/api/respond", { json: answer })).body, label).toEqual({ accepted: true });
      const seen = watchers[0]!;
      if (step === "delay" && delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (step === "resolved") await seen.waitFor((frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId, `${label}: the step`);
      if (step === "tool-row") await seen.waitFor((frame) => frame.type === "message/upserted" && frame.message.sessionId === sessionId && frame.message.tool?.status === "ok", `${label}: the step`);
      if (step === "reply") await seen.waitFor((frame) => frame.type === "message/upserted" && frame.message.sessionId === sessionId && frame.message.role === "assistant", `${label}: the step`);
      owner.child.kill(stop ? "SIGSTOP" : "SIGKILL");

      // Every live host: the question resolved on its sockets, the session idle, the answer in the tool row once.
      for (const [index, host] of others.entries()) {
        await watchers[index]!.waitFor((frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId, `${label}: question/resolved on ${host.url}`);
        const detail = await settled(async () => {
          const read = (await api(host.url, `/api/sessions/${sessionId}`)).body as { session: Session; messages: Message[] };
          const tools = read.messages.filter((message) => message.role === "tool");
          return read.session.state === "idle" && tools.every((message) => message.tool?.status !== "running") ? read : undefined;
        }, `${label}: the session idle on ${host.url}`);
        const tools = detail.messages.filter((message) => message.role === "tool");
        expect(
          tools.map((message) => [message.tool?.status, message.tool?.result, message.tool?.outcome]),
          label,
        ).toEqual([["ok", `{"answers":[{"id":"k${round}","selected":["yes"]}]}`, { kind: "answered", answers: [{ id: `k${round}`, selected: ["yes"] }] }]]);
        interrupted += tools[0]!.interrupted === true ? 1 : 0;
      }
      // No host replays a question nobody can answer, and every one takes the chat's next message.
      for (const host of others) {
        const fresh = await observe(host.url);
        expect(fresh.frames.filter((frame) => frame.type === "question/requested").map((frame) => frame.type === "question/requested" && frame.sessionId), label).toEqual([]);
      }
      const posted = await settled(async () => {
        const result = await api(answerer.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/echo after round ${round}` } });
        return result.status === 202 ? result : undefined;
      }, `${label}: the next message accepted`);
      expect(posted.status).toBe(202);
      await settled(async () => {
        const read = (await api(answerer.url, `/api/sessions/${sessionId}`)).body as { session: Session; messages: Message[] };
        return read.session.state === "idle" && read.messages.some((message) => message.text === `after round ${round}`) ? true : undefined;
      }, `${label}: the next turn's reply`);

      if (stop) {
        // Past the lease means until a live host adopted it: the checks above can end sooner when the owner had
        // finished the turn before it stopped, and a host continued before its lease was taken simply renews it.
        await settled(async () => ((await leaseRows(databaseUrl, ownerInstance)) === 0 ? true : undefined), `${label}: the stopped host adopted`);
        owner.child.kill("SIGCONT");
        const exited = await Promise.race([owner.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), SETTLED_MS))]);
        expect(exited, `${label}: the stopped host finds its lease gone and exits`).toBe(1);
      }
      removeDataDir(owner.dataDir);
      hosts = [...others, await startHostProcess({ env })];
      await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    }
    console.info(`kill-after-accept KILL_SEED=${SEED}: ${ROUNDS} rounds, ${interrupted / 2} answers written by the adopting host`);
  });

  it("[cluster-adopt] a host started after every host died adopts an answer accepted before the deaths into its tool row", { timeout: 120_000 }, async () => {
    const databaseUrl = await postgres.createDatabase();
    const env = { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: String(LEASE_S) };
    const [owner, answerer] = await Promise.all([0, 1].map(() => startHostProcess({ env })));
    hosts.push(owner!, answerer!);
    const watcher = await observe(answerer!.url);
    const created = await api(owner!.url, "/api/sessions", { json: {} });
    const sessionId = (created.body as { session: Session }).session.id;
    expect((await api(owner!.url, `/api/sessions/${sessionId}/messages`, { json: { text: askText("late") } })).status).toBe(202);
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId);
    // The owner hears nothing more, so its tool row stays running; the answer is accepted through the other host.
    owner!.child.kill("SIGSTOP");
    const answer = { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "late", selected: ["yes"] }] };
    expect((await api(answerer!.url, "/api/respond", { json: answer })).body).toEqual({ accepted: true });
    await Promise.all([owner!.kill("SIGKILL"), answerer!.kill("SIGKILL")]);
    // No host is left until one starts, after both leases ran out.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await settled(async () => ((await client.query<{ live: number }>("SELECT count(*)::int AS live FROM hosts WHERE lease_until > now()")).rows[0]!.live === 0 ? true : undefined), "both leases expired");
    } finally {
      await client.end();
    }
    const adopter = await startHostProcess({ env });
    hosts.push(adopter);
    const detail = await settled(async () => {
      const read = (await api(adopter.url, `/api/sessions/${sessionId}`)).body as { session: Session; messages: Message[] };
      const tools = read.messages.filter((message) => message.role === "tool");
      return tools.length > 0 && tools.every((message) => message.tool?.status !== "running") ? tools : undefined;
    }, "the adopted tool row");
    expect(detail.map((message) => [message.tool?.status, message.tool?.outcome])).toEqual([["ok", { kind: "answered", answers: [{ id: "late", selected: ["yes"] }] }]]);
  });

  it("[cluster-adopt] a host starting while a live one has not adopted a dead host yet adopts its streaming reply for every host to see", { timeout: 120_000 }, async () => {
    const { databaseUrl, owner, live, watcher } = await ownerAndLiveHost();
    const created = await api(owner.url, "/api/sessions", { json: {} });
    const sessionId = (created.body as { session: Session }).session.id;
    expect((await api(owner.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/stream 10000 first second third" } })).status).toBe(202);
    const delta = await watcher.waitFor((frame) => frame.type === "message/delta" && frame.sessionId === sessionId, "the reply streaming");
    const replyId = delta.type === "message/delta" ? delta.messageId : "";
    live.child.kill("SIGSTOP");
    await owner.kill("SIGKILL");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const expired = async () => (await client.query<{ expired: boolean }>("SELECT lease_until < now() AS expired FROM hosts WHERE lease_until < now() + interval '10 seconds'")).rows.map((row) => row.expired);
      await settled(async () => ((await expired()).join() === "true" ? true : undefined), "the owner's lease expired");
    } finally {
      await client.end();
    }
    hosts.push(await startHostProcess({ env: { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: String(LEASE_S) } }));
    live.child.kill("SIGCONT");
    // The live host's tab is told the reply was cut off, through the starting host's adoption.
    const ended = await watcher.waitFor((frame) => frame.type === "message/upserted" && frame.message.id === replyId && frame.message.interrupted === true, "the reply interrupted");
    expect(ended.type === "message/upserted" && [ended.message.role, ended.message.interrupted]).toEqual(["assistant", true]);
  });

  it("[cluster-adopt] a host that never saw a dead owner's question, answered through another host, adopts it resolved for every host", { timeout: 120_000 }, async () => {
    const { databaseUrl, owner, live, watcher } = await ownerAndLiveHost();
    const ownerInstance = ((await api(owner.url, "/api/health")).body as { cluster: { instance: string } }).cluster.instance;
    const created = await api(owner.url, "/api/sessions", { json: {} });
    const sessionId = (created.body as { session: Session }).session.id;
    expect((await api(owner.url, `/api/sessions/${sessionId}/messages`, { json: { text: askText("unseen") } })).status).toBe(202);
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId);
    // The owner hears nothing more, so it never resolves the question; the answer is accepted through the live host.
    owner.child.kill("SIGSTOP");
    const answer = { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "unseen", selected: ["no"] }] };
    expect((await api(live.url, "/api/respond", { json: answer })).body).toEqual({ accepted: true });
    // The live host is frozen while the owner's lease runs out, so a host started now, which loads only questions still
    // pending and so never knew this one, adopts the owner.
    live.child.kill("SIGSTOP");
    await owner.kill("SIGKILL");
    const adopter = await startHostProcess({ env: { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: String(LEASE_S) } });
    hosts.push(adopter);
    await settled(async () => ((await leaseRows(databaseUrl, ownerInstance)) === 0 ? true : undefined), "the owner adopted");
    live.child.kill("SIGCONT");
    // Every host: the question resolved answered on its sockets, and no host replays it to a tab that opens now.
    const resolved = await watcher.waitFor((frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId, "question/resolved on the live host");
    expect(resolved).toEqual({ type: "question/resolved", rpcId: asked.rpcId, sessionId, outcome: "answered", cause: "host-lost" });
    for (const host of [live, adopter]) {
      const fresh = await observe(host.url);
      expect(fresh.frames.filter((frame) => frame.type === "question/requested").map((frame) => frame.type === "question/requested" && frame.rpcId)).toEqual([]);
    }
  });
});
