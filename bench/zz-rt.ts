import { spawn } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { WebSocket, WebSocketServer } from "ws";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer, type RunningServer } from "../src/host/server";
import { median, progress, quantile } from "./stats";
import { medianReplayMs } from "./replay";

const TYPICAL_BATCH = JSON.stringify([
  { id: "pkg", header: "Tooling", question: "Which package manager should the project use?", options: [{ label: "pnpm (Recommended)", description: "Fast, strict, disk-efficient" }, { label: "npm" }, { label: "yarn" }] },
  { id: "checks", question: "Which checks should run in CI?", multiSelect: true, options: [{ label: "lint" }, { label: "typecheck" }, { label: "unit tests" }, { label: "e2e" }] },
  { id: "name", question: "What should the package be called?" },
]);
const TYPICAL_ANSWERS = [
  { id: "pkg", selected: ["pnpm (Recommended)"] },
  { id: "checks", selected: ["lint", "unit tests"] },
  { id: "name", selected: [], custom: "parley" },
];

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

function heapBytes(): number {
  for (let round = 0; round < 4; round++) gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

/** A socket whose text frames are parsed and handed to whoever waits for them. */
class FrameSocket {
  private readonly waiters: { match(frame: Record<string, unknown>): boolean; resolve(frame: Record<string, unknown>): void }[] = [];
  constructor(readonly socket: WebSocket) {
    socket.on("message", (data: Buffer) => {
      const frame = JSON.parse(data.toString("utf8")) as Record<string, unknown>;
      const index = this.waiters.findIndex((waiter) => waiter.match(frame));
      if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(frame);
    });
  }
  /** Resolves with the next frame (after this call) that matches. */
  next(match: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
  static async open(url: string): Promise<FrameSocket> {
    const socket = new WebSocket(url);
    const client = new FrameSocket(socket);
    const synced = client.next((frame) => frame.type === "synced");
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    await synced;
    return client;
  }
}

async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return response.json();
}

function readAll(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/**
 * The floor: the same exchange with none of Parley's work. An in-process ask pushes a `requested` frame on a bare `ws`
 * socket; the client POSTs its answer to a bare `http` handler, which replies, pushes `resolved`, and settles the ask.
 */
async function startBaseline() {
  const wss = new WebSocketServer({ noServer: true });
  const asked = new Map<number, () => void>();
  const push = (frame: object) => {
    const data = JSON.stringify(frame);
    for (const socket of wss.clients) socket.send(data);
  };
  const server = createServer((request, response) => {
    void readAll(request).then((text) => {
      const body = JSON.parse(text) as { seq: number; answers: unknown };
      const reply = JSON.stringify({ accepted: true });
      response.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(reply) });
      response.end(reply);
      push({ type: "resolved", seq: body.seq });
      asked.get(body.seq)?.();
      asked.delete(body.seq);
    });
  });
  server.on("upgrade", (request, socket, head) =>
    wss.handleUpgrade(request, socket, head, (client) => {
      client.send(JSON.stringify({ type: "synced" }));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ask(seq: number, questions: unknown): Promise<void> {
      return new Promise((resolve) => {
        asked.set(seq, resolve);
        push({ type: "requested", seq, questions });
      });
    },
    async close() {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function runBaseline(baseline: Awaited<ReturnType<typeof startBaseline>>, client: FrameSocket, iterations: number): Promise<number[]> {
  const samples: number[] = [];
  for (let seq = 0; seq < iterations; seq++) {
    const started = performance.now();
    const requested = client.next((frame) => frame.type === "requested" && frame.seq === seq);
    const settled = baseline.ask(seq, JSON.parse(TYPICAL_BATCH));
    await requested;
    const resolved = client.next((frame) => frame.type === "resolved" && frame.seq === seq);
    await postJson(`${baseline.url}/`, { seq, answers: TYPICAL_ANSWERS });
    await resolved;
    await settled;
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Every question the bench asks waits at once, so the cap on pending questions is lifted past them. */
const MAX_PENDING = 200_000;

function startHost(): Promise<RunningServer> {
  return startServer({ host: "127.0.0.1", port: 0, dataDir: ":memory:", model: createScriptedModel(), staticDir: "/nonexistent-parley-dist", rateLimits: false, maxPending: MAX_PENDING });
}

async function createSession(base: string): Promise<string> {
  const body = (await postJson(`${base}/api/sessions`, {})) as { session: { id: string } };
  return body.session.id;
}

/** One answered question through the host: ask → requested pushed → POST /api/respond → resolved pushed → ask settled. */
async function roundTrip(host: RunningServer, sessionId: string, clients: FrameSocket[]): Promise<{ total: number; respondToResolved: number }> {
  const started = performance.now();
  const requested = clients.map((client) => client.next((frame) => frame.type === "question/requested"));
  const settled = host.userInteraction.ask({ questions: JSON.parse(TYPICAL_BATCH), sessionId });
  const frames = await Promise.all(requested);
  const rpcId = frames[0]!.rpcId as string;
  const resolved = clients.map((client) => client.next((frame) => frame.type === "question/resolved" && frame.rpcId === rpcId));
  const posted = performance.now();
  const receipt = (await postJson(`${host.url}/api/respond`, { type: "answer", rpcId, sessionId, answers: TYPICAL_ANSWERS })) as { accepted: boolean };
  if (!receipt.accepted) throw new Error(`the host rejected a valid answer: ${JSON.stringify(receipt)}`);
  await Promise.all(resolved);
  const resolvedAt = performance.now();
  await settled;
  return { total: performance.now() - started, respondToResolved: resolvedAt - posted };
}

export interface HostResults {
  metrics: Record<string, number>;
  notes: Record<string, string | number>;
}

async function roundTripMetrics(results: HostResults) {
  const WARMUP = 300;
  const ITERATIONS = 750;
  const ROUNDS = 5;
  const baseline = await startBaseline();
  const baselineClient = await FrameSocket.open(baseline.url.replace(/^http/, "ws"));
  const host = await startHost();
  const sessionId = await createSession(host.url);
  const hostClient = await FrameSocket.open(`${host.url.replace(/^http/, "ws")}/api/mux`);
  await runBaseline(baseline, baselineClient, WARMUP);
  for (let index = 0; index < WARMUP; index++) await roundTrip(host, sessionId, [hostClient]);
  const baselineRates: number[] = [];
  const hostRates: number[] = [];
  const hostSamples: number[] = [];
  const baselineSamples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    progress(`round trip: round ${round + 1}/${ROUNDS}, ${ITERATIONS} bare-baseline requests and ${ITERATIONS} answered questions`);
    let started = performance.now();
    baselineSamples.push(...(await runBaseline(baseline, baselineClient, ITERATIONS)));
    baselineRates.push(ITERATIONS / ((performance.now() - started) / 1000));
    started = performance.now();
    for (let index = 0; index < ITERATIONS; index++) hostSamples.push((await roundTrip(host, sessionId, [hostClient])).total);
    hostRates.push(ITERATIONS / ((performance.now() - started) / 1000));
  }
  const hostRate = median(hostRates);
  const baselineRate = median(baselineRates);
  const ratios = hostRates.map((rate, round) => rate / baselineRates[round]!);
  results.metrics["host.roundtrip.ratio"] = median(ratios);
  results.notes["host.roundtrip.ratio_spread"] = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} over ${ROUNDS} rounds`;
  results.metrics["host.roundtrip.p50_ms"] = median(hostSamples);
  results.metrics["host.roundtrip.p99_ms"] = quantile(hostSamples, 0.99);
  results.notes["host.roundtrip.per_second"] = Math.round(hostRate);
  results.notes["baseline.per_second"] = Math.round(baselineRate);
  results.notes["baseline.p50_ms"] = Number(median(baselineSamples).toFixed(3));
  hostClient.socket.terminate();
  baselineClient.socket.terminate();
  await baseline.close();

  progress("fan-out: 16 sockets on one session, 300 answered questions");
  const sockets = await Promise.all(Array.from({ length: 16 }, () => FrameSocket.open(`${host.url.replace(/^http/, "ws")}/api/mux`)));
  for (let index = 0; index < 50; index++) await roundTrip(host, sessionId, sockets);
  const fanout: number[] = [];
  for (let index = 0; index < 300; index++) fanout.push((await roundTrip(host, sessionId, sockets)).respondToResolved);
  results.metrics["host.fanout.p95_ms"] = quantile(fanout, 0.95);
  for (const client of sockets) client.socket.terminate();

  progress("replay: 1,000 pending questions to a fresh socket, 20 times");
  const pending: Promise<unknown>[] = [];
  let aborted = 0;
  for (let index = 0; index < 1000; index++) {
    pending.push(
      host.userInteraction.ask({ questions: JSON.parse(TYPICAL_BATCH), sessionId }).then(
        () => Promise.reject(new Error("a replayed question was answered")),
        (error: { code?: string }) => {
          if (error.code !== "ASK_ABORTED") throw error;
          aborted++;
        },
      ),
    );
  }
results.metrics["host.replay.ms_per_1000"] = await medianReplayMs(host.url, 21, 1000);
  await host.close();
  await Promise.all(pending);
  if (aborted !== 1000) throw new Error(`${aborted} of 1000 pending questions were aborted at shutdown`);
}

async function pendingMemory(results: HostResults) {
  const SESSIONS = 1000;
  const PER_SESSION = 100;
  progress(`pending memory: ${SESSIONS * PER_SESSION} pending 3-question requests across ${SESSIONS} sessions`);
  const host = await startHost();
  const sessions: string[] = [];
  for (let index = 0; index < SESSIONS; index++) sessions.push(await createSession(host.url));
  const before = heapBytes();
  const pending: Promise<unknown>[] = [];
  let aborted = 0;
  for (const sessionId of sessions) {
    for (let index = 0; index < PER_SESSION; index++) {
      pending.push(
        host.userInteraction.ask({ questions: JSON.parse(TYPICAL_BATCH), sessionId }).then(
          () => Promise.reject(new Error("a pending question was answered")),
          (error: { code?: string }) => {
            // Only the shutdown's abort is expected: a question refused at the ask would not have been counted as pending.
            if (error.code !== "ASK_ABORTED") throw error;
            aborted++;
          },
        ),
      );
    }
  }
  // What pending questions hold at rest: the work each ask set off (the broadcast, the session's new state) finishes first.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = heapBytes();
  const perRequest = (after - before) / (SESSIONS * PER_SESSION);
  results.metrics["host.pending.bytes_per_question"] = perRequest;
  results.notes["host.pending.bytes_per_question_item"] = Math.round(perRequest / 3);
  await host.close();
  await Promise.all(pending);
  if (aborted !== SESSIONS * PER_SESSION) throw new Error(`${aborted} pending questions were aborted at shutdown`);
}

async function idleSocketMemory(results: HostResults) {
  const SOCKETS = 1000;
  progress(`idle sockets: ${SOCKETS} idle mux sockets from a separate process`);
  const host = await startHost();
  const before = heapBytes();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "idle-clients.ts"), `${host.url.replace(/^http/, "ws")}/api/mux`, String(SOCKETS)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`idle clients exited with ${code}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = heapBytes();
  results.metrics["host.idle_socket.bytes"] = (after - before) / SOCKETS;
  child.stdin!.end();
  await new Promise((resolve) => child.once("exit", resolve));
  await host.close();
}

const results: HostResults = { metrics: {}, notes: {} };
await roundTripMetrics(results);


process.stdout.write(`${JSON.stringify(results)}\n`);
