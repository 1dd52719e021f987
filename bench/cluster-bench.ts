import { WebSocket } from "ws";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer, type RunningServer } from "../src/host/server";
import { startTestPostgres } from "../src/testing/host/postgres";
import { findProcess, treeCpuSeconds } from "./proc";
import { median, progress, quantile } from "./stats";
import { medianReplayMs } from "./replay";
import { floorCpuPerAnswer } from "./cluster-floor";

/**
 * Three hosts on one Postgres against one SQLite host, in the same run and the same process
 * (the hosts share its event loop, so the ratio is a floor for hosts on their own cores):
 * answered questions per second, CPU seconds per answered question (this process, which runs the hosts and the clients,
 * plus every Postgres process), cross-host fan-out p95 to 3 × 16 sockets, replay of 1,000 pending questions.
 */
const QUESTIONS = [{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm" }, { label: "npm" }] }];
const ANSWERS = [{ id: "pkg", selected: ["pnpm"] }];
const CONCURRENCY = 16;
const ANSWERED = 1500;
const ROUNDS = 3;

/** A socket that remembers which questions it was shown and which resolutions it saw. */
class Watcher {
  private readonly seen = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();
  constructor(readonly socket: WebSocket) {
    socket.on("message", (data: Buffer) => {
      const frame = JSON.parse(data.toString("utf8")) as { type: string; rpcId?: string };
      if (frame.type !== "question/requested" && frame.type !== "question/resolved") return;
      const key = `${frame.type} ${frame.rpcId}`;
      this.seen.add(key);
      for (const resolve of this.waiters.get(key) ?? []) resolve();
      this.waiters.delete(key);
    });
  }
  until(type: "question/requested" | "question/resolved", rpcId: string): Promise<void> {
    const key = `${type} ${rpcId}`;
    if (this.seen.has(key)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(key, [...(this.waiters.get(key) ?? []), resolve]));
  }
  static open(host: RunningServer): Promise<Watcher> {
    const socket = new WebSocket(`${host.url.replace(/^http/, "ws")}/api/mux`);
    const watcher = new Watcher(socket);
    return new Promise((resolve, reject) => {
      socket.on("message", (data: Buffer) => {
        if ((JSON.parse(data.toString("utf8")) as { type: string }).type === "synced") resolve(watcher);
      });
      socket.once("error", reject);
    });
  }
}

async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return response.json();
}

function startHost(databaseUrl?: string): Promise<RunningServer> {
  return startServer({ host: "127.0.0.1", port: 0, dataDir: ":memory:", model: createScriptedModel(), staticDir: "/nonexistent-parley-dist", rateLimits: false, ...(databaseUrl ? { databaseUrl } : {}) });
}

/** Asks on one host and answers through the next one, shown the question by its socket first, as a browser there would be. */
async function answerOne(hosts: RunningServer[], watchers: Watcher[], sessionId: string, index: number): Promise<void> {
  const asker = hosts[index % hosts.length]!;
  const responder = (index + 1) % hosts.length;
  let rpcId = "";
  const requested = new Promise<void>((resolve) => {
    void asker.userInteraction
      .ask({
        questions: QUESTIONS,
        sessionId,
        onRequested(id) {
          rpcId = id;
          resolve();
        },
      })
      .catch((error: unknown) => progress(`an asked question failed: ${String(error)}`));
  });
  await requested;
  await watchers[responder]!.until("question/requested", rpcId);
  const receipt = (await postJson(`${hosts[responder]!.url}/api/respond`, { type: "answer", rpcId, sessionId, answers: ANSWERS })) as { accepted: boolean };
  if (!receipt.accepted) throw new Error(`a valid answer was refused: ${JSON.stringify(receipt)}`);
  await watchers[index % hosts.length]!.until("question/resolved", rpcId);
}

async function answeredPerSecond(hosts: RunningServer[], watchers: Watcher[], sessionId: string, count: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await answerOne(hosts, watchers, sessionId, next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/** CPU seconds used so far by this process and `postgres` (when given). */
function cpuNow(postgres: number | null): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6 + (postgres === null ? 0 : treeCpuSeconds(postgres));
}

/** CPU seconds this process and `postgres` (when given) spend on `work`. */
async function cpuOf(work: () => Promise<unknown>, postgres: number | null): Promise<number> {
  const before = cpuNow(postgres);
  await work();
  return cpuNow(postgres) - before;
}

async function createSession(host: RunningServer): Promise<string> {
  return ((await postJson(`${host.url}/api/sessions`, {})) as { session: { id: string } }).session.id;
}

async function main() {
  const metrics: Record<string, number> = {};
  const notes: Record<string, string | number> = {};
  const postgres = await startTestPostgres();
  try {
    const databaseUrl = await postgres.createDatabase();
    const cluster = [await startHost(databaseUrl)];
    cluster.push(...(await Promise.all([startHost(databaseUrl), startHost(databaseUrl)])));
    const single = await startHost();
    const clusterWatchers = await Promise.all(cluster.map((host) => Watcher.open(host)));
    // The same three browsers in both: one on each host of the cluster, all three on the single host.
    const singleWatchers = await Promise.all(cluster.map(() => Watcher.open(single)));
    const clusterSession = await createSession(cluster[0]!);
    const singleSession = await createSession(single);

    progress(`cluster: warming up, then ${ROUNDS} rounds of ${ANSWERED} answered questions on 1 SQLite host and through 3 Postgres hosts`);
    await answeredPerSecond([single], singleWatchers, singleSession, 200);
    await answeredPerSecond(cluster, clusterWatchers, clusterSession, 200);
    const postmaster = findProcess(["postgres", "-p", String(postgres.port)]);
    if (postmaster === null) throw new Error(`no Postgres process listens on port ${postgres.port}`);
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    const clusterRates: number[] = [];
    const singleRates: number[] = [];
    const cpuPerAnswer = { single: [] as number[], cluster: [] as number[], floor: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      let one = 0;
      let three = 0;
      const singleCpu = await cpuOf(async () => (one = await answeredPerSecond([single], singleWatchers, singleSession, ANSWERED)), null);
      const clusterCpu = await cpuOf(async () => (three = await answeredPerSecond(cluster, clusterWatchers, clusterSession, ANSWERED)), postmaster);
      singleRates.push(one);
      clusterRates.push(three);
      ratios.push(three / one);
      cpuPerAnswer.single.push(singleCpu / ANSWERED);
      cpuPerAnswer.cluster.push(clusterCpu / ANSWERED);
      cpuRatios.push(clusterCpu / singleCpu);
      cpuPerAnswer.floor.push(await floorCpuPerAnswer(databaseUrl, ANSWERED, CONCURRENCY, () => cpuNow(postmaster)));
    }
    metrics["cluster.answered.ratio"] = median(ratios);
    metrics["cluster.cpu_per_answer.ratio"] = median(cpuRatios);
    notes["cluster.cpu_per_answer_ms"] = `3 Postgres hosts ${(median(cpuPerAnswer.cluster) * 1000).toFixed(2)}, 1 SQLite host ${(median(cpuPerAnswer.single) * 1000).toFixed(2)}, the database's statements alone ${(median(cpuPerAnswer.floor) * 1000).toFixed(2)}`;
    // What the ratio would be if 3 hosts cost one host's work plus the database's statements, and nothing else.
    notes["cluster.cpu_per_answer.floor_ratio"] = Number(((median(cpuPerAnswer.single) + median(cpuPerAnswer.floor)) / median(cpuPerAnswer.single)).toFixed(2));
    notes["cluster.answered.per_second"] = Math.round(median(clusterRates));
    notes["cluster.single_sqlite.per_second"] = Math.round(median(singleRates));

    progress("cluster: fan-out to 3 × 16 sockets, asked on one host, answered through another, 300 times");
    const sockets = (await Promise.all(cluster.map((host) => Promise.all(Array.from({ length: 16 }, () => Watcher.open(host)))))).flat();
    const fanout: number[] = [];
    for (let index = 0; index < 350; index++) {
      let rpcId = "";
      await new Promise<void>((resolve) => {
        void cluster[0]!.userInteraction.ask({ questions: QUESTIONS, sessionId: clusterSession, onRequested: (id) => ((rpcId = id), resolve()) }).catch((error: unknown) => progress(String(error)));
      });
      await Promise.all(sockets.map((socket) => socket.until("question/requested", rpcId)));
      const posted = performance.now();
      await postJson(`${cluster[1]!.url}/api/respond`, { type: "answer", rpcId, sessionId: clusterSession, answers: ANSWERS });
      await Promise.all(sockets.map((socket) => socket.until("question/resolved", rpcId)));
      if (index >= 50) fanout.push(performance.now() - posted);
    }
    metrics["cluster.fanout.p95_ms"] = quantile(fanout, 0.95);
    notes["cluster.fanout.p50_ms"] = Number(median(fanout).toFixed(2));
    for (const socket of sockets) socket.socket.terminate();

    progress("cluster: 1,000 questions pending on one host, replayed to a fresh socket on another, 11 times");
    const pending: Promise<unknown>[] = [];
    let last = "";
    for (let index = 0; index < 1000; index++) {
      pending.push(cluster[0]!.userInteraction.ask({ questions: QUESTIONS, sessionId: clusterSession, onRequested: (id) => (last = id) }).catch(() => undefined));
    }
    await clusterWatchers[2]!.until("question/requested", last);
metrics["cluster.replay.ms_per_1000"] = await medianReplayMs(cluster[2]!.url, 11, 1000);

    for (const watcher of [...clusterWatchers, ...singleWatchers]) watcher.socket.terminate();
    await single.close();
    for (const host of cluster) await host.close();
    await Promise.all(pending);
  } finally {
    await postgres.stop();
  }
  console.log(JSON.stringify({ metrics, notes }));
}

await main();
