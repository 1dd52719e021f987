import fc from "fast-check";
import { connect as tcpConnect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DownFrame, QuestionRequestedFrame } from "../protocol/schemas";
import { api, connect, testStoreEnv } from "../testing/host/harness";
import { removeDataDir, startHostProcess, type HostProcess } from "../testing/host/host-process";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const BATCH = 25;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const TIMEOUT_MS = 120_000 + RUNS * 60;
const READ_IDLE_MS = 40;
const READ_MAX_MS = 1_500;
/** The fuzz talks from its own loopback address, so the brake on wrong tokens never slows the checks made from 127.0.0.1. */
const FUZZ_ADDRESS = "127.0.0.2";
const TOKEN = "raw-socket-fuzz-token-0123456789";

type Ending = "read" | "half-close" | "reset" | "silence";

interface Probe {
  bytes: Buffer;
  ending: Ending;
}

const TARGETS = [
  "/", "//", "//%", "//@", "//a:99999/", "///", "/%", "/%00", "/%E0%A4%A", "/..", "/../../etc/passwd", "/%2e%2e/%2e%2e/package.json",
  "/assets/../../package.json", "/api", "/api/", "/api/health", "/api/mux", "/api/respond", "/api/sessions", "/api/sessions?limit=0",
  "/api/sessions?before=%", "/api/sessions?q=%25", "/api/sessions/%", "/api/sessions/%E0%A4%A/messages", "/api/sessions/constructor",
  "/api/sessions/__proto__/abort", "/api/sessions/toString/messages", "/api/logout", "/?token=", "/?token=%", "/?token=guess", "/demo#%",
  "/#session=%", "*", "http://127.0.0.1/", "http://evil.example//", "example.org:443", "", " ", "/\u00ff", "/\u{1F600}", "/mcp",
];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "PRI", "get", "G\u0000T", "", "BREW"];
const VERSIONS = ["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "HTTP/1.1 extra", "", "HTTP/1.10"];

function headerArbitrary(port: number) {
  const own = `127.0.0.1:${port}`;
  const entries: fc.Arbitrary<[string, string]>[] = [
    fc.constantFrom(own, "localhost", "evil.example", "", "127.0.0.1:99999", "[::1", "a b").map((value) => ["Host", value] as [string, string]),
    fc.constantFrom(`http://${own}`, "https://evil.example", "null", "", "http://127.0.0.1").map((value) => ["Origin", value] as [string, string]),
    fc.constant<[string, string]>(["Upgrade", "websocket"]),
    fc.constantFrom("Upgrade", "keep-alive", "close", "Upgrade, close").map((value) => ["Connection", value] as [string, string]),
    fc.constantFrom("dGhlIHNhbXBsZSBub25jZQ==", "short", "").map((value) => ["Sec-WebSocket-Key", value] as [string, string]),
    fc.constantFrom("13", "8", "x").map((value) => ["Sec-WebSocket-Version", value] as [string, string]),
    fc.constantFrom("0", "5", "-1", "99999999999", "abc", "1, 2").map((value) => ["Content-Length", value] as [string, string]),
    fc.constantFrom("chunked", "gzip", "chunked, chunked", "x").map((value) => ["Transfer-Encoding", value] as [string, string]),
    fc.constantFrom("application/json", "text/plain", "application/x+json", "").map((value) => ["Content-Type", value] as [string, string]),
    fc.constantFrom(`parley_login_${port}=guess`, "parley_token=guess", `parley_login_${port}=%`, "=;;=").map((value) => ["Cookie", value] as [string, string]),
    fc.constantFrom("Bearer guess", "Bearer ", "Basic Zm9vOmJhcg==", "Bearer " + "x".repeat(2000)).map((value) => ["Authorization", value] as [string, string]),
    fc.constantFrom("cross-site", "same-origin", "none").map((value) => ["Sec-Fetch-Site", value] as [string, string]),
  ];
  const odd = fc.tuple(fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 12 }), fc.string({ unit: "binary-ascii", maxLength: 40 }));
  return fc.array(fc.oneof({ weight: 12, arbitrary: fc.oneof(...entries) }, { weight: 1, arbitrary: odd }), { maxLength: 8 });
}

function probeArbitrary(port: number): fc.Arbitrary<Probe> {
  const ending = fc.constantFrom<Ending>("read", "half-close", "reset", "silence");
  const target = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TARGETS) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }).map((tail) => `/${tail}`) });
  const structured = fc
    .record({
      method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("GET", "POST", "DELETE", "PATCH") }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      target,
      version: fc.oneof({ weight: 4, arbitrary: fc.constant("HTTP/1.1") }, { weight: 1, arbitrary: fc.constantFrom(...VERSIONS) }),
      headers: headerArbitrary(port),
      body: fc.uint8Array({ maxLength: 300 }),
      complete: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      ending,
    })
    .map(({ method, target: path, version, headers, body, complete, ending: end }): Probe => {
      const head = `${method} ${path} ${version}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}`;
      return { bytes: Buffer.concat([Buffer.from(complete ? `${head}\r\n` : head, "latin1"), Buffer.from(body)]), ending: end };
    });
  const raw = fc.record({ bytes: fc.uint8Array({ minLength: 1, maxLength: 400 }), ending }).map(({ bytes, ending: end }): Probe => ({ bytes: Buffer.from(bytes), ending: end }));
  return fc.oneof({ weight: 5, arbitrary: structured }, { weight: 1, arbitrary: raw });
}

/** Sends one probe from the fuzz address and ends it as told; resolves with what came back (empty when nothing did). */
function send(port: number, probe: Probe): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = tcpConnect({ host: "127.0.0.1", port, localAddress: FUZZ_ADDRESS });
    let received = "";
    let idle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(idle);
      clearTimeout(cap);
      socket.destroy();
      resolve(received);
    };
    const cap = setTimeout(finish, READ_MAX_MS);
    socket.on("error", finish);
    socket.on("close", finish);
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      clearTimeout(idle);
      idle = setTimeout(finish, READ_IDLE_MS);
    });
    socket.on("connect", () => {
      socket.write(probe.bytes);
      if (probe.ending === "reset") socket.resetAndDestroy();
      else if (probe.ending === "half-close") socket.end();
      else if (probe.ending === "silence") setTimeout(finish, 10);
    });
  });
}

const STATUS_LINE = /^HTTP\/1\.1 (\d{3}) /;

async function replay(url: string, headers: Record<string, string>): Promise<DownFrame[]> {
  const client = await connect(url, headers);
  await client.waitFor((frame) => frame.type === "synced");
  await client.close();
  return client.frames.slice(1);
}

for (const mode of ["open", "token"] as const) {
  describe(`raw TCP bytes against a real host process (${mode})`, () => {
    let host: HostProcess;
    const auth: Record<string, string> = mode === "token" ? { authorization: `Bearer ${TOKEN}` } : {};
    let pendingBefore: DownFrame[];
    let storeBefore: unknown;

    async function snapshotStore() {
      const list = await api(host.url, "/api/sessions?limit=200", { headers: auth });
      const sessions = (list.body as { sessions: { id: string }[] }).sessions;
      const details = await Promise.all(sessions.map(async (session) => (await api(host.url, `/api/sessions/${session.id}`, { headers: auth })).body));
      return { list: list.body, details };
    }

    beforeAll(async () => {
      host = await startHostProcess({ env: { ...(await testStoreEnv()), ...(mode === "token" ? { PARLEY_TOKEN: TOKEN } : {}) } });
      const created = await api(host.url, "/api/sessions", { json: {}, headers: auth });
      const sessionId = (created.body as { session: { id: string } }).session.id;
      const watcher = await connect(host.url, auth);
      const questions = [{ id: "constructor", question: "Which?", options: [{ label: "__proto__" }, { label: "toString" }] }];
      await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify({ questions })}` }, headers: auth });
      await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
      await watcher.close();
      pendingBefore = await replay(host.url, auth);
      storeBefore = await snapshotStore();
    }, 60_000);

    afterAll(async () => {
      const code = await host.kill("SIGTERM");
      expect(code).toBe(0);
      removeDataDir(host.dataDir);
    });

    it("stays up, answers with a well-formed status other than 500 whenever it answers, and changes nothing it refused", { timeout: TIMEOUT_MS }, async () => {
      let sent = 0;
      const statuses = new Map<number, number>();
      const check = async () => {
        expect(host.alive(), host.stderr()).toBe(true);
        const health = await api(host.url, "/api/health", { headers: auth });
        expect(health.status).toBe(200);
        expect(await replay(host.url, auth)).toEqual(pendingBefore);
        if (mode === "token") expect(await snapshotStore()).toEqual(storeBefore);
      };
      await fc.assert(
        fc.asyncProperty(probeArbitrary(host.port), async (probe) => {
          const answer = await send(host.port, probe);
          if (answer !== "") {
            const status = Number(STATUS_LINE.exec(answer)?.[1]);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            expect(answer.slice(0, 200)).toMatch(STATUS_LINE);
            expect(status === 500 || status === 0, answer.slice(0, 400)).toBe(false);
          }
          if (++sent % BATCH === 0) await check();
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
      await check();
      expect(host.stderr()).toBe("");
      const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0);
      expect(answered, JSON.stringify(Object.fromEntries(statuses))).toBeGreaterThan(RUNS / 3);
    });
  });
}
