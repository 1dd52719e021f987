import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api, connect, createSession, createTestHosts, loginCookieName, startTestServer, TEST_STORE } from "../../testing/host/harness";
import { removeDataDir, startHostProcess } from "../../testing/host/host-process";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { createTempDirs } from "../../testing/host/temp-dirs";
import { startFakePushService, type FakeDevice, type FakePushService } from "../../testing/push/fake-push-service";
import type { RunningServer } from "../server";
import { DATABASE_FILE, openStore } from "../store";
import type { Logins } from "../fence/logins";
import { loginsWithPush, ownerLiveIn } from "./push-host";
import { loginDigest, type PushService } from "./push-service";

const TOKEN = "push-token-of-24-chars!!";
const hosts = createTestHosts();
const dirs = createTempDirs("parley-push-");
let fake: FakePushService;

beforeEach(async () => {
  fake = await startFakePushService();
});

afterEach(async () => {
  await hosts.closeAll();
  await fake.close();
  dirs.removeAll();
});

async function subscribe(server: RunningServer, device: FakeDevice, headers: Record<string, string> = {}, label = "Pixel 8 · Chrome") {
  const result = await api(server.url, "/api/push/subscriptions", { json: { ...device.subscription, label }, headers });
  expect(result.status).toBe(201);
}

/** Asks one question through the host's seam; resolves with its rpcId once it is pending, and `settled` with how the call ended. */
async function ask(server: RunningServer, sessionId: string, question: string) {
  let settled!: Promise<string>;
  const rpcId = await new Promise<string>((resolve) => {
    settled = server.userInteraction
      .ask({ sessionId, questions: [{ id: "ship", question, options: [{ label: "Yes" }, { label: "No" }] }], signal: new AbortController().signal, onRequested: resolve })
      .then(
        () => "answered",
        (error: unknown) => (error as { code?: string }).code ?? "failed",
      );
  });
  return { rpcId, settled };
}

async function respond(server: RunningServer, rpcId: string, sessionId: string, choice: string, headers: Record<string, string> = {}) {
  return api(server.url, "/api/respond", { json: { type: "answer", rpcId, sessionId, answers: [{ id: "ship", selected: [choice] }] }, headers });
}

describe("the host's Web Push", () => {
  it("push-payload, push-close: pushes each pending question to every subscribed device, and a second push closes it once answered", async () => {
    const server = await hosts.start({ pushAllowLoopback: true });
    const device = fake.device();
    await subscribe(server, device);
    const sessionId = await createSession(server.url);
    const { rpcId } = await ask(server, sessionId, "Ship the build?");
    const [request] = await fake.waitFor(device, 1);
    expect(request!.payload).toEqual({
      v: 1,
      kind: "request",
      rpcId,
      sessionId,
      title: "Your agent: Question",
      body: "Ship the build?",
      actions: [
        { action: "a0", title: "Yes", answers: [{ id: "ship", selected: ["Yes"] }] },
        { action: "a1", title: "No", answers: [{ id: "ship", selected: ["No"] }] },
      ],
      pending: 1,
    });
    expect((await respond(server, rpcId, sessionId, "No")).body).toEqual({ accepted: true });
    const pushes = await fake.waitFor(device, 2);
    expect(pushes[1]!.payload).toEqual({ v: 1, kind: "resolved", rpcId, sessionId, outcome: "answered", pending: 0 });
    expect(pushes[1]!.vapidKey).toBe(((await api(server.url, "/api/push/key")).body as { publicKey: string }).publicKey);
  });

  it("push-endpoint: refuses a loopback endpoint unless PARLEY_PUSH_ALLOW_LOOPBACK is set", async () => {
    const server = await hosts.start();
    const refused = await api(server.url, "/api/push/subscriptions", { json: fake.device().subscription });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: "INVALID_BODY" } } });
  });

  it("push-close: closes the notifications of questions the host settles as it shuts down", async () => {
    const server = await startTestServer({ pushAllowLoopback: true });
    const device = fake.device();
    await subscribe(server, device);
    const sessionId = await createSession(server.url);
    const { rpcId, settled } = await ask(server, sessionId, "Ship the build?");
    await fake.waitFor(device, 1);
    await server.close();
    expect(await settled).toBe("ASK_ABORTED");
    expect(fake.received.map((push) => [push.payload.kind, push.payload.rpcId])).toEqual([
      ["request", rpcId],
      ["resolved", rpcId],
    ]);
  });

  it("push-owner: a subscription belongs to the login that made it, and goes when that login logs out", async () => {
    const server = await hosts.start({ token: TOKEN, pushAllowLoopback: true });
    const loginCookie = async () => (await api(server.url, `/?token=${TOKEN}`)).headers.get("set-cookie")!.split(";")[0]!;
    const [phone, laptop] = [await loginCookie(), await loginCookie()];
    expect(phone.startsWith(`${loginCookieName(server)}=`)).toBe(true);
    const [phoneDevice, laptopDevice] = [fake.device(), fake.device()];
    await subscribe(server, phoneDevice, { cookie: phone }, "Pixel 8 · Chrome");
    await subscribe(server, laptopDevice, { cookie: laptop }, "Linux · Chromium");
    const listed = await api(server.url, "/api/push/subscriptions", { headers: { cookie: phone } });
    expect((listed.body as { subscriptions: { label: string; mine: boolean }[] }).subscriptions.map(({ label, mine }) => ({ label, mine }))).toEqual([
      { label: "Pixel 8 · Chrome", mine: true },
      { label: "Linux · Chromium", mine: false },
    ]);
    expect((await api(server.url, "/api/logout", { method: "POST", headers: { cookie: phone } })).status).toBe(200);
    const after = await api(server.url, "/api/push/subscriptions", { headers: { cookie: laptop } });
    expect((after.body as { subscriptions: { endpoint: string }[] }).subscriptions.map((subscription) => subscription.endpoint)).toEqual([laptopDevice.subscription.endpoint]);
  });

  it("push-key: keeps its VAPID keys and subscriptions across a restart on the same data", async () => {
    const dataDir = dirs.make();
    const first = await startTestServer({ dataDir, pushAllowLoopback: true });
    const device = fake.device();
    await subscribe(first, device);
    const key = (await api(first.url, "/api/push/key")).body;
    await first.close();
    const again = await hosts.start({ dataDir, pushAllowLoopback: true });
    expect((await api(again.url, "/api/push/key")).body).toEqual(key);
    const sessionId = await createSession(again.url);
    await ask(again, sessionId, "Still there?");
    const [push] = await fake.waitFor(device, 1);
    expect(push!.vapidKey).toBe((key as { publicKey: string }).publicKey);
  });
});

describe.skipIf(TEST_STORE === "postgres")("Web Push across a single host's crash", () => {
  it("push-close: a host started on the data of one that was killed closes the notifications of what was pending then, once", { timeout: 60_000 }, async () => {
    const env = { PARLEY_PUSH_ALLOW_LOOPBACK: "1" };
    const first = await startHostProcess({ env });
    const { dataDir } = first;
    let again: Awaited<ReturnType<typeof startHostProcess>> | null = null;
    const device = fake.device();
    const open = () => {
      const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
      try {
        return db.prepare("SELECT rpc_id AS rpcId, session_id AS sessionId FROM push_open ORDER BY rpc_id").all();
      } finally {
        db.close();
      }
    };
    const askIn = async (url: string, sessionId: string, question: string) => {
      const body = { questions: [{ id: "ship", question, options: [{ label: "Yes" }, { label: "No" }] }] };
      expect((await api(url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify(body)}` } })).status).toBe(202);
    };
    try {
      expect((await api(first.url, "/api/push/subscriptions", { json: device.subscription })).status).toBe(201);
      const [left, answered] = [await createSession(first.url), await createSession(first.url)];
      await askIn(first.url, left, "Left waiting?");
      const [leftPush] = await fake.waitFor(device, 1);
      await askIn(first.url, answered, "Answered?");
      const [, answeredPush] = await fake.waitFor(device, 2);
      const answer = { type: "answer", rpcId: answeredPush!.payload.rpcId, sessionId: answered, answers: [{ id: "ship", selected: ["Yes"] }] };
      expect((await api(first.url, "/api/respond", { json: answer })).body).toEqual({ accepted: true });
      await fake.waitFor(device, 3);
      // The answered one's close push went out, so only the one left waiting is still open.
      await expect.poll(open).toEqual([{ rpcId: leftPush!.payload.rpcId, sessionId: left }]);
      await first.kill("SIGKILL");
      again = await startHostProcess({ env, dataDir });
      const pushes = await fake.waitFor(device, 4);
      expect(pushes[3]!.payload).toEqual({ v: 1, kind: "resolved", rpcId: leftPush!.payload.rpcId, sessionId: left, outcome: "aborted", pending: 0 });
      await expect.poll(open).toEqual([]);
      await again.kill("SIGTERM");
      expect(fake.received.map((push) => [push.payload.kind, push.payload.rpcId, push.payload.outcome ?? null])).toEqual([
        ["request", leftPush!.payload.rpcId, null],
        ["request", answeredPush!.payload.rpcId, null],
        ["resolved", answeredPush!.payload.rpcId, "answered"],
        ["resolved", leftPush!.payload.rpcId, "aborted"],
      ]);
    } finally {
      await first.kill("SIGKILL");
      await again?.kill("SIGKILL");
      removeDataDir(dataDir);
    }
  });
});

describe("the push service beside the logins", () => {
  it("push-owner: a rotated login moves its subscriptions to the new login, a revoked one removes them, and the login answers as before", async () => {
    const calls: string[][] = [];
    const push = {
      loginRotated: async (from: string, to: string) => void calls.push(["rotated", from, to]),
      loginRevoked: async (digest: string) => void calls.push(["revoked", digest]),
    } as unknown as PushService;
    const logins: Logins = {
      issue: async () => "fresh",
      check: async (value) => (value === "old" ? { ok: true, replacement: "new" } : value === "live" ? { ok: true, replacement: null } : { ok: false }),
      revoke: async (value) => value === "live",
    };
    const wrapped = loginsWithPush(logins, push, () => undefined);
    expect([await wrapped.check("old"), await wrapped.check("live"), await wrapped.check("gone"), await wrapped.revoke("live")]).toEqual([{ ok: true, replacement: "new" }, { ok: true, replacement: null }, { ok: false }, true]);
    expect(calls).toEqual([
      ["rotated", loginDigest("old"), loginDigest("new")],
      ["revoked", loginDigest("live")],
    ]);
  });

  it("push-owner: counts a login live while it is stored, unexpired and made with this token; host only without a token, token only with one", async () => {
    const store = openStore(":memory:");
    await store.insertLogin({ digest: loginDigest("live"), tokenDigest: loginDigest(TOKEN), issuedAt: 0, expiresAt: 2_000 });
    await store.insertLogin({ digest: loginDigest("expired"), tokenDigest: loginDigest(TOKEN), issuedAt: 0, expiresAt: 500 });
    await store.insertLogin({ digest: loginDigest("other-token"), tokenDigest: loginDigest("another-token-of-24-chars"), issuedAt: 0, expiresAt: 2_000 });
    const live = ownerLiveIn(store, TOKEN, () => 1_000);
    const owners = ["live", "expired", "other-token", "never"].map(loginDigest);
    expect(await Promise.all([...owners, "host", "token"].map(live))).toEqual([true, false, false, false, false, true]);
    expect(await Promise.all(["host", "token", loginDigest("live")].map(ownerLiveIn(store, undefined)))).toEqual([true, false, false]);
    await store.close();
  });
});

// These start their own Postgres: run once, in the SQLite project.
describe.skipIf(postgresBinDir() === null || TEST_STORE === "postgres")("Web Push in a cluster", () => {
  const postgres = useTestPostgres();

  it("push-cluster: hosts share one key pair and every device; the host that asked sends the request push and its close push, once", { timeout: 60_000 }, async () => {
    const databaseUrl = await postgres().createDatabase();
    const owner = await startTestServer({ databaseUrl, pushAllowLoopback: true });
    const other = await startTestServer({ databaseUrl, pushAllowLoopback: true });
    const device = fake.device();
    try {
      expect((await api(other.url, "/api/push/key")).body).toEqual((await api(owner.url, "/api/push/key")).body);
      await subscribe(other, device);
      const sessionId = await createSession(owner.url);
      const { rpcId, settled } = await ask(owner, sessionId, "Ship the build?");
      await fake.waitFor(device, 1);
      expect((await respond(other, rpcId, sessionId, "Yes")).body).toEqual({ accepted: true });
      expect(await settled).toBe("answered");
      await fake.waitFor(device, 2);
    } finally {
      await other.close();
      await owner.close();
    }
    // Both hosts have stopped, so every push either of them would send has gone out.
    expect(fake.received.map((push) => [push.payload.kind, push.payload.pending])).toEqual([
      ["request", 1],
      ["resolved", 0],
    ]);
  });

  it("push-cluster: a device subscribed or removed through another host gets, or stops getting, the next question's pushes", { timeout: 60_000 }, async () => {
    const databaseUrl = await postgres().createDatabase();
    const owner = await startTestServer({ databaseUrl, pushAllowLoopback: true });
    const other = await startTestServer({ databaseUrl, pushAllowLoopback: true });
    const [first, second] = [fake.device(), fake.device()];
    const watcher = await connect(owner.url);
    /** Waits until the owner has heard everything the other host notified so far: a session made there reaches it after. */
    const heardFromOther = async () => {
      const marker = await createSession(other.url);
      await watcher.waitFor((frame) => frame.type === "session/upserted" && frame.session.id === marker, "the other host's session");
    };
    const rpcIds: string[] = [];
    try {
      await subscribe(owner, first, {}, "first");
      const sessionId = await createSession(owner.url);
      // The owner reads the subscriptions for this question's push and keeps them.
      const one = await ask(owner, sessionId, "One?");
      rpcIds.push(one.rpcId);
      await fake.waitFor(first, 1);
      await subscribe(other, second, {}, "second");
      await heardFromOther();
      const two = await ask(owner, sessionId, "Two?");
      rpcIds.push(two.rpcId);
      await fake.waitFor(first, 2);
      await fake.waitFor(second, 1);
      expect((await api(other.url, "/api/push/subscriptions", { method: "DELETE", json: { endpoint: first.subscription.endpoint } })).status).toBe(204);
      await heardFromOther();
      const three = await ask(owner, sessionId, "Three?");
      rpcIds.push(three.rpcId);
      await fake.waitFor(second, 2);
    } finally {
      await watcher.close();
      await other.close();
      await owner.close();
    }
    // Both hosts have stopped: every push went out, and the questions still pending at shutdown were closed.
    const requestsTo = (device: FakeDevice) => fake.received.filter((push) => push.deviceId === device.id && push.payload.kind === "request").map((push) => push.payload.rpcId);
    expect(requestsTo(first)).toEqual([rpcIds[0], rpcIds[1]]);
    expect(requestsTo(second)).toEqual([rpcIds[1], rpcIds[2]]);
  });

  it("push-cluster: the host that adopts a dead host's question sends its close push, once", { timeout: 90_000 }, async () => {
    const databaseUrl = await postgres().createDatabase();
    const env = { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: "2", PARLEY_PUSH_ALLOW_LOOPBACK: "1" };
    const owner = await startHostProcess({ env });
    const adopter = await startHostProcess({ env });
    const device = fake.device();
    try {
      expect((await api(adopter.url, "/api/push/subscriptions", { json: device.subscription })).status).toBe(201);
      const watcher = await connect(adopter.url);
      const sessionId = await createSession(owner.url);
      const ask = { questions: [{ id: "ship", question: "Ship the build?", options: [{ label: "Yes" }, { label: "No" }] }] };
      expect((await api(owner.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify(ask)}` } })).status).toBe(202);
      const [request] = await fake.waitFor(device, 1);
      await owner.kill("SIGKILL");
      const resolved = await watcher.waitFor((frame) => frame.type === "question/resolved" && frame.rpcId === request!.payload.rpcId, "the adopted question resolved");
      expect(resolved).toMatchObject({ outcome: "aborted" });
      await fake.waitFor(device, 2);
      await watcher.close();
    } finally {
      await owner.kill("SIGKILL");
      await adopter.kill("SIGTERM");
      removeDataDir(owner.dataDir);
      removeDataDir(adopter.dataDir);
    }
    // The adopter has stopped, so every push it would send has gone out.
    expect(fake.received.map((push) => [push.payload.kind, push.payload.outcome ?? null])).toEqual([
      ["request", null],
      ["resolved", "aborted"],
    ]);
  });

  it("push-cluster: a host started after a dead host's lease ran out adopts its question and sends its close push", { timeout: 90_000 }, async () => {
    const databaseUrl = await postgres().createDatabase();
    const env = { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: "2", PARLEY_PUSH_ALLOW_LOOPBACK: "1" };
    const owner = await startHostProcess({ env });
    const device = fake.device();
    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    let adopter: Awaited<ReturnType<typeof startHostProcess>> | null = null;
    try {
      expect((await api(owner.url, "/api/push/subscriptions", { json: device.subscription })).status).toBe(201);
      const sessionId = await createSession(owner.url);
      const ask = { questions: [{ id: "ship", question: "Ship the build?", options: [{ label: "Yes" }, { label: "No" }] }] };
      expect((await api(owner.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify(ask)}` } })).status).toBe(202);
      const [request] = await fake.waitFor(device, 1);
      await owner.kill("SIGKILL");
      // No host is left to adopt it until one starts, after the dead host's lease ran out.
      const expired = async () => (await database.query<{ expired: boolean }>("SELECT lease_until < now() AS expired FROM hosts")).rows.map((row) => row.expired);
      await expect.poll(expired, { timeout: 30_000 }).toEqual([true]);
      adopter = await startHostProcess({ env });
      const [, resolved] = await fake.waitFor(device, 2);
      expect([resolved!.payload.kind, resolved!.payload.rpcId, resolved!.payload.outcome]).toEqual(["resolved", request!.payload.rpcId, "aborted"]);
    } finally {
      await database.end();
      await owner.kill("SIGKILL");
      await adopter?.kill("SIGTERM");
      removeDataDir(owner.dataDir);
      if (adopter) removeDataDir(adopter.dataDir);
    }
  });
});
