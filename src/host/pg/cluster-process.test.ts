import fc from "fast-check";
import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { QuestionRequestedFrame, QuestionResolvedFrame } from "../../protocol/schemas";
import { connect, type FrameClient } from "../../testing/host/harness";
import { removeDataDir, startHostProcess, type HostProcess } from "../../testing/host/host-process";
import { postgresBinDir, startTestPostgres, type TestPostgres } from "../../testing/host/postgres";
import { startTcpProxy, type TcpProxy } from "../../testing/host/tcp-proxy";
import { CLUSTER_LOST_MESSAGE } from "./cluster";

const SEED = Number(process.env.CLUSTER_SEED ?? Date.now() % 100_000);
const LEASE_S = 3;
/** A dead host's questions resolve within its lease plus one renewal of the adopter, plus slack for a loaded machine. */
const ADOPTION_BOUND_MS = LEASE_S * 1000 + (LEASE_S * 1000) / 6 + 3000;
const QUESTIONS = Number(process.env.CLUSTER_QUESTIONS ?? 200);
const RACERS = 4;

/** A seeded stream of numbers in [0, 1). */
function random(seed: number): () => number {
  const values = fc.sample(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { numRuns: 20_000, seed });
  let index = 0;
  return () => values[index++ % values.length]!;
}

/** HTTP through node:http from a chosen loopback address, so each simulated client has its own rate-limit bucket. */
function call(base: string, path: string, json: unknown | undefined, from: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const data = json === undefined ? undefined : JSON.stringify(json);
    const target = new URL(path, base);
    const outgoing = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: data === undefined ? "GET" : "POST", localAddress: from, headers: data === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(data) } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text.startsWith("{") ? JSON.parse(text) : text }));
      },
    );
    outgoing.setTimeout(20_000, () => outgoing.destroy(new Error(`${path} timed out`)));
    outgoing.on("error", reject);
    outgoing.end(data);
  });
}

const askText = (id: string) => `/ask ${JSON.stringify({ questions: [{ id, question: `Pick for ${id}?`, options: [{ label: "Yes" }, { label: "No" }, { label: "Maybe" }, { label: "Later" }] }] })}`;
const LABELS = ["Yes", "No", "Maybe", "Later"];

describe.skipIf(postgresBinDir() === null)(`three host processes on one Postgres behind a round-robin proxy (CLUSTER_SEED=${SEED})`, () => {
  let postgres: TestPostgres;
  let hosts: HostProcess[] = [];
  let proxy: TcpProxy | null = null;
  const sockets: FrameClient[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    await proxy?.close();
    proxy = null;
    for (const host of hosts) {
      if (host.child.signalCode === null && host.child.exitCode === null) host.child.kill("SIGCONT");
      await host.kill("SIGKILL");
      removeDataDir(host.dataDir);
    }
    hosts = [];
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  async function startHosts(count: number): Promise<HostProcess[]> {
    const databaseUrl = await postgres.createDatabase();
    const env = { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: String(LEASE_S) };
    // One first, so the others find the schema made; then the rest at once.
    hosts.push(await startHostProcess({ env }));
    hosts.push(...(await Promise.all(Array.from({ length: count - 1 }, () => startHostProcess({ env })))));
    return hosts;
  }

  async function observe(url: string): Promise<FrameClient> {
    const socket = await connect(url);
    sockets.push(socket);
    await socket.waitFor((frame) => frame.type === "synced");
    return socket;
  }

  async function ask(url: string, from: string, id: string): Promise<string> {
    const created = await call(url, "/api/sessions", {}, from);
    const sessionId = (created.body as { session: { id: string } }).session.id;
    const posted = await call(url, `/api/sessions/${sessionId}/messages`, { text: askText(id) }, from);
    expect([created.status, posted.status]).toEqual([201, 202]);
    return sessionId;
  }

  it(`[cluster-respond] answers ${QUESTIONS} questions through random hosts with ${RACERS} racing responses each: exactly one accepted every time, none lost or doubled`, { timeout: 240_000 }, async () => {
    await startHosts(3);
    const next = random(SEED);
    proxy = await startTcpProxy(() => hosts.map((host) => host.port));
    const watchers = await Promise.all(hosts.map((host) => observe(host.url)));
    let proxied = await Promise.all([0, 1, 2].map(() => observe(proxy!.url)));
    const address = (index: number) => `127.0.${1 + (index % 200)}.${1 + Math.floor(index / 200)}`;

    const sessionIds = await Promise.all(Array.from({ length: QUESTIONS }, (_, index) => ask(hosts[Math.floor(next() * hosts.length)]!.url, address(index), `q${index}`)));
    const bySession = new Map(sessionIds.map((sessionId, index) => [sessionId, index]));
    const asked = await Promise.all(sessionIds.map((sessionId) => watchers[0]!.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId)));
    // A browser answers what its host showed it: every host has shown every question before the responses race.
    for (const watcher of watchers.slice(1)) await Promise.all(asked.map((frame) => watcher.waitFor((seen) => seen.type === "question/requested" && seen.rpcId === frame.rpcId)));

    // Cut proxied sockets at random while the responses race; the ones left open must still see every resolution.
    let cuts = 0;
    const chaos = setInterval(() => {
      if (proxy!.cutRandom(next) > 0) cuts++;
    }, 150);
    const responses = asked.flatMap((frame) => {
      const index = bySession.get(frame.sessionId)!;
      return Array.from({ length: RACERS }, (_, racer) => ({ frame, label: LABELS[racer]!, host: hosts[Math.floor(next() * hosts.length)]!, from: address(index * RACERS + racer + QUESTIONS) }));
    });
    const receipts = await Promise.all(
      responses.map(async (response) => {
        const receipt = await call(response.host.url, "/api/respond", { type: "answer", rpcId: response.frame.rpcId, sessionId: response.frame.sessionId, answers: [{ id: response.frame.questions[0]!.id, selected: [response.label] }] }, response.from);
        return { ...response, receipt };
      }),
    );
    clearInterval(chaos);

    const winners = new Map<string, string>();
    for (const { frame, label, receipt } of receipts) {
      expect(receipt.status).toBe(200);
      const body = receipt.body as { accepted: boolean; reason?: string };
      if (body.accepted) {
        expect(winners.has(frame.rpcId)).toBe(false);
        winners.set(frame.rpcId, label);
      } else expect(body.reason).toBe("not-pending");
    }
    expect(winners.size).toBe(QUESTIONS);

    for (const watcher of watchers) {
      await Promise.all(asked.map((frame) => watcher.waitFor<QuestionResolvedFrame>((seen) => seen.type === "question/resolved" && seen.rpcId === frame.rpcId)));
      const resolved = watcher.frames.filter((frame): frame is QuestionResolvedFrame => frame.type === "question/resolved");
      expect([resolved.length, new Set(resolved.map((frame) => frame.rpcId)).size, resolved.every((frame) => frame.outcome === "answered")]).toEqual([QUESTIONS, QUESTIONS, true]);
    }
    proxied = proxied.filter((socket) => socket.socket.readyState === socket.socket.OPEN);
    for (const socket of proxied) expect(new Set(socket.frames.filter((frame) => frame.type === "question/resolved").map((frame) => frame.type === "question/resolved" && frame.rpcId)).size).toBe(QUESTIONS);

    // Every tool row holds the winning answer, once; a fresh socket on any host replays nothing pending.
    const idleAfter = (watcher: FrameClient, sessionId: string) => {
      const from = watcher.frames.findIndex((frame) => frame.type === "question/resolved" && frame.sessionId === sessionId);
      return watcher.waitFor((frame, index) => index > from && frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.state === "idle");
    };
    await Promise.all(sessionIds.map((sessionId) => idleAfter(watchers[1]!, sessionId)));
    const reader = hosts[2]!.url;
    for (const frame of asked) {
      const detail = (await call(reader, `/api/sessions/${frame.sessionId}`, undefined, "127.0.0.1")).body as { messages: { role: string; tool?: { status: string; outcome?: unknown } }[] };
      const tools = detail.messages.filter((message) => message.role === "tool");
      expect(tools.map((message) => [message.tool?.status, message.tool?.outcome])).toEqual([["ok", { kind: "answered", answers: [{ id: frame.questions[0]!.id, selected: [winners.get(frame.rpcId)] }] }]]);
    }
    const fresh = await observe(proxy.url);
    expect(fresh.frames.map((frame) => frame.type)).toEqual(["hello", "synced"]);
    expect(cuts).toBeGreaterThan(0);
  });

  it("[cluster-lease] kill -9 of the host that owns pending questions: they resolve aborted on the others' sockets within the lease bound, its tool rows stop interrupted", { timeout: 120_000 }, async () => {
    const [owner, second, third] = await startHosts(3);
    const watchers = await Promise.all([second!, third!].map((host) => observe(host.url)));
    const sessionIds = [await ask(owner!.url, "127.0.0.1", "kill-1"), await ask(owner!.url, "127.0.0.1", "kill-2")];
    const asked = await Promise.all(sessionIds.map((sessionId) => watchers[0]!.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId)));
    // A browser answers what its host showed it: every host has shown every question before the responses race.
    for (const watcher of watchers.slice(1)) await Promise.all(asked.map((frame) => watcher.waitFor((seen) => seen.type === "question/requested" && seen.rpcId === frame.rpcId)));
    const killedAt = performance.now();
    expect(await owner!.kill("SIGKILL")).toBe("SIGKILL");
    for (const watcher of watchers) {
      for (const frame of asked) {
        const resolved = await waitLong(watcher, (seen) => seen.type === "question/resolved" && seen.rpcId === frame.rpcId, ADOPTION_BOUND_MS + 2000);
        expect(resolved).toEqual({ type: "question/resolved", rpcId: frame.rpcId, sessionId: frame.sessionId, outcome: "aborted", cause: "host-lost" });
      }
    }
    expect(performance.now() - killedAt).toBeLessThan(ADOPTION_BOUND_MS);
    for (const sessionId of sessionIds) {
      const from = watchers[1]!.frames.findIndex((frame) => frame.type === "question/resolved" && frame.sessionId === sessionId);
      await watchers[1]!.waitFor((frame, index) => index > from && frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.state === "idle");
      const adopted = watchers[1]!.frames.filter((frame, index) => index > from && frame.type === "message/upserted" && frame.message.sessionId === sessionId && frame.message.role === "tool");
      expect(adopted.map((frame) => (frame.type === "message/upserted" ? [frame.message.tool?.status, frame.message.interrupted] : []))).toEqual([["stopped", true]]);
    }
    for (const sessionId of sessionIds) {
      const detail = (await call(third!.url, `/api/sessions/${sessionId}`, undefined, "127.0.0.1")).body as { session: { state: string }; messages: { role: string; interrupted?: boolean; tool?: { status: string; error?: { code: string } } }[] };
      expect([detail.session.state, detail.messages.filter((message) => message.role === "tool").map((message) => [message.tool?.status, message.tool?.error?.code, message.interrupted])]).toEqual(["idle", [["stopped", "ASK_ABORTED", true]]]);
    }
    const health = await pollHealth(second!.url, (body) => body.cluster?.instances === 2, (LEASE_S * 1000) / 6 + 2000);
    expect([health.status, health.body.cluster?.state]).toEqual([200, "ok"]);
  });

  it("[cluster-lease] a host stopped past its lease and continued cannot resolve anything, and exits 1 naming why", { timeout: 120_000 }, async () => {
    const [sleeper, awake] = await startHosts(2);
    const watcher = await observe(awake!.url);
    const sessionId = await ask(sleeper!.url, "127.0.0.1", "sleep");
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId);
    sleeper!.child.kill("SIGSTOP");
    await waitLong(watcher, (frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId, ADOPTION_BOUND_MS + 2000);
    sleeper!.child.kill("SIGCONT");
    const answer = { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "sleep", selected: ["Yes"] }] };
    // Refused while it finds out, or no longer listening once it has.
    const receipt = await call(sleeper!.url, "/api/respond", answer, "127.0.0.1").catch((error: unknown) => ({ status: 0, body: (error as NodeJS.ErrnoException).code }));
    expect([503, 0]).toContain(receipt.status);
    expect([await sleeper!.exited, sleeper!.stderr()]).toEqual([1, `parley: ${CLUSTER_LOST_MESSAGE}\n`]);
    expect(sleeper!.logs.filter((entry) => entry.event === "stopping")).toEqual([expect.objectContaining({ reason: "cluster-lost" })]);
    expect((await call(awake!.url, "/api/respond", answer, "127.0.0.1")).body).toEqual({ accepted: false, reason: "not-pending", detail: `question ${asked.rpcId} is not pending (unknown, already answered, cancelled or aborted)` });
    const detail = (await call(awake!.url, `/api/sessions/${sessionId}`, undefined, "127.0.0.1")).body as { messages: { role: string; interrupted?: boolean; tool?: { status: string } }[] };
    expect(detail.messages.filter((message) => message.role === "tool").map((message) => [message.tool?.status, message.interrupted])).toEqual([["stopped", true]]);
    expect(watcher.frames.filter((frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId)).toEqual([{ type: "question/resolved", rpcId: asked.rpcId, sessionId, outcome: "aborted", cause: "host-lost" }]);
  });

  it("Postgres restarted under load: hosts reconnect, pending questions survive and are answered through another host", { timeout: 120_000 }, async () => {
    const [first, second] = await startHosts(2);
    const sessionIds = await Promise.all(Array.from({ length: 10 }, (_, index) => ask(first!.url, `127.0.9.${index + 1}`, `restart-${index}`)));
    const before = await observe(second!.url);
    const asked = await Promise.all(sessionIds.map((sessionId) => before.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId)));
    await postgres.stopServer();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await postgres.startServer();
    await pollHealth(first!.url, (body) => body.ok === true, 20_000);
    await pollHealth(second!.url, (body) => body.ok === true, 20_000);
    const after = await observe(second!.url);
    expect(after.frames.filter((frame) => frame.type === "question/requested").map((frame) => frame.type === "question/requested" && frame.rpcId).sort()).toEqual(asked.map((frame) => frame.rpcId).sort());
    const receipts = await Promise.all(asked.map((frame) => call(second!.url, "/api/respond", { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: frame.questions[0]!.id, selected: ["Yes"] }] }, "127.0.8.1")));
    expect(receipts.map((receipt) => receipt.body)).toEqual(asked.map(() => ({ accepted: true })));
    for (const frame of asked) await after.waitFor((seen) => seen.type === "question/resolved" && seen.rpcId === frame.rpcId && seen.outcome === "answered");
  });
});

async function waitLong(client: FrameClient, predicate: Parameters<FrameClient["waitFor"]>[0], timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = client.frames.find(predicate);
    if (found) return found;
    if (performance.now() > deadline) throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(client.frames.map((frame) => frame.type))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function pollHealth(url: string, done: (body: { ok?: boolean; cluster?: { state: string; instances: number } }) => boolean, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const health = await call(url, "/api/health", undefined, "127.0.0.1").catch((error: unknown) => ({ status: 0, body: { error: String(error) } }));
    const body = health.body as { ok?: boolean; cluster?: { state: string; instances: number } };
    if (done(body)) return { status: health.status, body };
    if (performance.now() > deadline) throw new Error(`health of ${url} did not settle within ${timeoutMs} ms: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
