import Database from "better-sqlite3";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { approvalQuestions } from "../../protocol/approval";
import { checkAnswers } from "../../protocol/answers";
import type { QuestionRequestedFrame, ToolApproval } from "../../protocol/schemas";
import { dispatch, HttpError, sendError } from "../http/http";
import type { LogEntry } from "../log";
import { parseRequestTarget } from "../fence/request-target";
import { MAX_PAYLOAD_BYTES, type RequestPush } from "./payload";
import { createPushService, endpointAllowed, OPEN_NOTE_MAX_AGE_MS, loginDigest, loginOwner, retryAfterMs, type PushService, type PushServiceOptions } from "./push-service";
import { memoryPushStore, sqlitePushStore, type PushStore } from "./push-store";
import { publicOnlyLookup, type Lookup } from "./push-address";
import { startFakePushService, type FakeDevice, type FakePushService } from "../../testing/push/fake-push-service";

const COOKIE = "parley_login_1";

function requested(rpcId: string, overrides: Partial<QuestionRequestedFrame> = {}): QuestionRequestedFrame {
  return {
    type: "question/requested",
    rpcId,
    sessionId: "s1",
    createdAt: "2026-12-01T00:00:00.000Z",
    origin: { kind: "mcp-client", name: "Claude Code" },
    questions: [{ id: "q1", header: "Deploy", question: "Ship it to production?", options: [{ label: "Yes" }, { label: "No" }] }],
    ...overrides,
  };
}

let fake: FakePushService;
let service: PushService;
let api: Server;
let apiUrl: string;
let logs: LogEntry[];
let store: PushStore;
let sleeps: number[];

async function start(options: Partial<PushServiceOptions> = {}) {
  service = await createPushService({
    store,
    log: (entry) => logs.push(entry),
    allowLoopback: true,
    ownerOf: loginOwner(() => COOKIE),
    sleep: async (ms) => void sleeps.push(ms),
    ...options,
  });
  api = createServer((request, response) => {
    dispatch(service.routes(), request, response, parseRequestTarget(request.url)!).catch((error: unknown) => {
      if (error instanceof HttpError) sendError(response, error.status, error.code, error.message);
      else sendError(response, 500, "INTERNAL", String(error));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
}

function call(method: string, path: string, body?: unknown, login = "login-a") {
  return fetch(`${apiUrl}${path}`, {
    method,
    headers: { "Content-Type": "application/json", Cookie: `${COOKIE}=${login}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function subscribe(device: FakeDevice, extra: Record<string, unknown> = {}, login = "login-a") {
  const response = await call("POST", "/api/push/subscriptions", { ...device.subscription, ...extra }, login);
  expect(response.status).toBe(201);
}

beforeEach(async () => {
  fake = await startFakePushService();
  logs = [];
  sleeps = [];
  store = memoryPushStore();
});

afterEach(async () => {
  await service?.close();
  await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
  await fake.close();
});

describe("push service against a push service that decrypts what a phone would get", () => {
  it("push-payload: sends each pending request as an encrypted, VAPID-signed push: asker, header, first question, its options as actions, tag = rpcId", async () => {
    await start();
    const device = fake.device();
    await subscribe(device, { label: "Pixel 8 · Chrome" });
    service.onFrame(requested("rpc-1"));
    const [push] = await fake.waitFor(device, 1);
    expect(push!.status).toBe(201);
    expect(push!.vapidKey).toBe(service.publicKey);
    expect(push!.payload).toEqual({
      v: 1,
      kind: "request",
      rpcId: "rpc-1",
      sessionId: "s1",
      title: "Claude Code: Deploy",
      body: "Ship it to production?",
      actions: [
        { action: "a0", title: "Yes", answers: [{ id: "q1", selected: ["Yes"] }] },
        { action: "a1", title: "No", answers: [{ id: "q1", selected: ["No"] }] },
      ],
      pending: 1,
    });
    expect(push!.headers.ttl).toBe("86400");
    expect(push!.headers.urgency).toBe("high");
    expect(push!.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it("push-payload: shows outside words on one line without bidi controls, and answers with the exact label", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    const label = "Keep report\u202Etxt.exe";
    service.onFrame(requested("rpc-1", { origin: { kind: "mcp-client", name: "Claude\u202E Code" }, questions: [{ id: "q1", header: "\u2066Deploy\u2069", question: "Ship\n\n it to\u202E production?", options: [{ label }, { label: "No" }] }] }));
    const [push] = await fake.waitFor(device, 1);
    expect(push!.payload).toMatchObject({
      title: "Claude Code: Deploy",
      body: "Ship it to production?",
      actions: [
        { action: "a0", title: "Keep reporttxt.exe", answers: [{ id: "q1", selected: [label] }] },
        { action: "a1", title: "No", answers: [{ id: "q1", selected: ["No"] }] },
      ],
    });
  });

  it("push-payload: shows every other hidden character as a marker, so two options that differ only in one read apart", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    service.onFrame(requested("rpc-1", { questions: [{ id: "q1", header: "De\u200Bploy", question: "Ship it\u{E0041}?", options: [{ label: "Yes" }, { label: "Yes\u200B" }] }] }));
    const [push] = await fake.waitFor(device, 1);
    expect(push!.payload).toMatchObject({
      title: "Claude Code: De⟨U+200B⟩ploy",
      body: "Ship it⟨U+E0041⟩?",
      actions: [
        { action: "a0", title: "Yes", answers: [{ id: "q1", selected: ["Yes"] }] },
        { action: "a1", title: "Yes⟨U+200B⟩", answers: [{ id: "q1", selected: ["Yes\u200B"] }] },
      ],
    });
  });

  it("push-cluster: counts for the badge what is pending as a host reads it again after an outage, not resolves it missed", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    service.onFrame(requested("rpc-a"), "elsewhere");
    service.onFrame(requested("rpc-b"), "elsewhere");
    // Cut off from the database, the host missed rpc-a's resolve and the requests rpc-c and rpc-d.
    service.recount([requested("rpc-b"), requested("rpc-c"), requested("rpc-d")]);
    service.onFrame(requested("rpc-1"));
    const [push] = await fake.waitFor(device, 1);
    expect([push!.payload.rpcId, push!.payload.pending]).toEqual(["rpc-1", 4]);
    // A read that missed this host's own rpc-1 (written just after it) keeps it: its close push is still this host's to send.
    // One that read rpc-2 before its frame came here still lets that frame send its request push.
    service.recount([requested("rpc-b"), requested("rpc-c"), requested("rpc-d"), requested("rpc-2")]);
    service.onFrame(requested("rpc-2"));
    const [, second] = await fake.waitFor(device, 2);
    expect([second!.payload.rpcId, second!.payload.pending]).toEqual(["rpc-2", 5]);
    service.onFrame({ type: "question/resolved", rpcId: "rpc-2", sessionId: "s1", outcome: "answered" });
    // A resolve of a request no longer counted sends nothing; one counted closes with the count left.
    service.onFrame({ type: "question/resolved", rpcId: "rpc-a", sessionId: "s1", outcome: "answered" }, "elsewhere");
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    const pushes = await fake.waitFor(device, 4);
    // The two close pushes go out side by side: in either order.
    expect(pushes.slice(2).map((push) => push.payload).sort((one, other) => String(one.rpcId).localeCompare(String(other.rpcId)))).toEqual([
      { v: 1, kind: "resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered", pending: 3 },
      { v: 1, kind: "resolved", rpcId: "rpc-2", sessionId: "s1", outcome: "answered", pending: 4 },
    ]);
  });

  it("push-close: closes it with a second push naming the rpcId once resolved, after the first, with the same topic", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    service.onFrame(requested("rpc-1"));
    await fake.waitFor(device, 1);
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    const pushes = await fake.waitFor(device, 2);
    expect(pushes.map((push) => push.payload.kind)).toEqual(["request", "resolved"]);
    expect(pushes[1]!.payload).toEqual({ v: 1, kind: "resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered", pending: 0 });
    expect(pushes[1]!.headers.topic).toBe(pushes[0]!.headers.topic);
  });

  it("push-close: keeps a request pushed to a device as open until its close push went out, and writes nothing for one no device got", async () => {
    const writes: string[] = [];
    const open = store.openRequests!;
    store = { ...store, openRequests: { ...open, add: (request) => (writes.push(`add ${request.rpcId}`), open.add(request)), remove: (rpcId) => (writes.push(`remove ${rpcId}`), open.remove(rpcId)) } };
    await start({ now: () => 1_800_000_000_000 });
    service.onFrame(requested("rpc-unseen"));
    service.onFrame({ type: "question/resolved", rpcId: "rpc-unseen", sessionId: "s1", outcome: "answered" });
    await service.idle();
    const device = fake.device();
    await subscribe(device);
    service.onFrame(requested("rpc-1"));
    await service.idle();
    expect(await open.list()).toEqual([{ rpcId: "rpc-1", sessionId: "s1", openedAt: 1_800_000_000_000, givenUpAt: null }]);
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect(await open.list()).toEqual([]);
    expect(writes).toEqual(["add rpc-1", "remove rpc-1"]);
    expect(fake.received.map((push) => [push.payload.kind, push.payload.rpcId])).toEqual([
      ["request", "rpc-1"],
      ["resolved", "rpc-1"],
    ]);
  });

  it("push-close: keeps a request noted while its close push was given up, and closes it at the next start", async () => {
    await start({ retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 10 }, now: () => 1_800_000_000_000 });
    const device = fake.device();
    await subscribe(device);
    service.onFrame(requested("rpc-1"));
    await service.idle();
    // The push service is down through the close push's every attempt.
    fake.answer(device, { status: 503 }, { status: 503 });
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect(await store.openRequests!.list()).toEqual([{ rpcId: "rpc-1", sessionId: "s1", openedAt: 1_800_000_000_000, givenUpAt: 1_800_000_000_000 }]);
    await service.close();
    const again = await createPushService({ store, log: (entry) => logs.push(entry), allowLoopback: true, ownerOf: loginOwner(() => COOKIE), sleep: async () => undefined });
    await again.idle();
    expect(await store.openRequests!.list()).toEqual([]);
    await again.close();
    expect(fake.received.map((push) => [push.status, push.payload.kind, push.payload.outcome ?? null])).toEqual([
      [201, "request", null],
      [503, "resolved", "answered"],
      [503, "resolved", "answered"],
      [201, "resolved", "aborted"],
    ]);
  });

  it("push-close: keeps a request noted when its devices cannot be listed for the close push", async () => {
    let listing = "works";
    await start({ ownerLive: async () => (listing === "works" ? true : Promise.reject(new Error("database away"))), now: () => 1_800_000_000_000 });
    const device = fake.device();
    await subscribe(device);
    service.onFrame(requested("rpc-1"));
    await service.idle();
    listing = "fails";
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect(await store.openRequests!.list()).toEqual([{ rpcId: "rpc-1", sessionId: "s1", openedAt: 1_800_000_000_000, givenUpAt: 1_800_000_000_000 }]);
    expect(logs.filter((entry) => entry.event === "push/list-failed")).toEqual([{ event: "push/list-failed", error: "database away" }]);
    expect(fake.received.map((push) => push.payload.kind)).toEqual(["request"]);
  });

  it("push-close: at start, closes what the store kept open (its host died with them pending); a failed note still lets the push go", async () => {
    const device = fake.device();
    await store.putSubscription({ endpoint: device.subscription.endpoint, p256dh: device.subscription.keys.p256dh, auth: device.subscription.keys.auth, owner: "host", label: null, hideText: false, createdAt: 1 });
    await store.openRequests!.add({ rpcId: "rpc-left", sessionId: "s2", openedAt: Date.now() - 60_000 });
    store = { ...store, openRequests: { ...store.openRequests!, add: () => Promise.reject(new Error("disk full")) } };
    await start();
    await service.idle();
    expect(await store.openRequests!.list()).toEqual([]);
    service.onFrame(requested("rpc-1"));
    await service.idle();
    expect(fake.received.map((push) => push.payload)).toEqual([
      { v: 1, kind: "resolved", rpcId: "rpc-left", sessionId: "s2", outcome: "aborted", pending: 0 },
      expect.objectContaining({ kind: "request", rpcId: "rpc-1", pending: 1 }),
    ]);
    expect(logs.filter((entry) => entry.event === "push/note-failed")).toEqual([{ event: "push/note-failed", error: "disk full" }]);
  });

  it("push-close: lets go at start of a note whose close push was first given up over a week ago; a long-pending request's is still sent", async () => {
    const NOW = 1_800_000_000_000;
    const device = fake.device();
    await store.putSubscription({ endpoint: device.subscription.endpoint, p256dh: device.subscription.keys.p256dh, auth: device.subscription.keys.auth, owner: "host", label: null, hideText: false, createdAt: 1 });
    const open = store.openRequests!;
    await open.add({ rpcId: "rpc-old", sessionId: "s1", openedAt: NOW - 2 * OPEN_NOTE_MAX_AGE_MS });
    await open.gaveUp("rpc-old", NOW - OPEN_NOTE_MAX_AGE_MS - 1);
    await open.gaveUp("rpc-old", NOW);
    await open.add({ rpcId: "rpc-week", sessionId: "s2", openedAt: NOW - 2 * OPEN_NOTE_MAX_AGE_MS });
    await open.gaveUp("rpc-week", NOW - OPEN_NOTE_MAX_AGE_MS);
    // Pending for a month when its host died: its close push was never tried.
    await open.add({ rpcId: "rpc-long", sessionId: "s3", openedAt: NOW - 4 * OPEN_NOTE_MAX_AGE_MS });
    await start({ now: () => NOW });
    await service.idle();
    expect(await open.list()).toEqual([]);
    expect(fake.received.map((push) => push.payload.rpcId).sort()).toEqual(["rpc-long", "rpc-week"]);
    expect(fake.received.map((push) => push.payload.outcome)).toEqual(["aborted", "aborted"]);
    expect(logs.filter((entry) => entry.event === "push/close-abandoned")).toEqual([{ event: "push/close-abandoned", rpcId: "rpc-old", givenUpAt: new Date(NOW - OPEN_NOTE_MAX_AGE_MS - 1).toISOString() }]);
  });

  it("push-none: lists no devices for a question while the store holds none, and still closes one a device got after that device went", async () => {
    const lists: number[] = [];
    const inner = store;
    store = { ...inner, listSubscriptions: async () => { const all = await inner.listSubscriptions(); lists.push(all.length); return all; } };
    await start({ now: () => 1_800_000_000_000 });
    service.onFrame(requested("rpc-alone"));
    service.onFrame({ type: "question/resolved", rpcId: "rpc-alone", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect(lists).toEqual([]);
    const device = fake.device();
    await subscribe(device);
    lists.length = 0;
    service.onFrame(requested("rpc-1"));
    await service.idle();
    expect(lists).toEqual([1]);
    expect((await call("DELETE", "/api/push/subscriptions", { endpoint: device.subscription.endpoint })).status).toBe(204);
    expect(store.holdsNone()).toBe(true);
    lists.length = 0;
    // rpc-1 was pushed to the device: its close goes the whole way, finds no device and lets its note go.
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect(lists).toEqual([0]);
    expect(await store.openRequests!.list()).toEqual([]);
    expect(fake.received.map((push) => [push.payload.kind, push.payload.rpcId])).toEqual([["request", "rpc-1"]]);
  });

  it("push-none: the SQLite store tells it holds none without reading, as each write and each list leaves it", async () => {
    const db = new Database(":memory:");
    const sqlite = sqlitePushStore(db);
    const subscription = { endpoint: "https://push.example/1", p256dh: "k", auth: "a", owner: "host", label: null, hideText: false, createdAt: 1000 };
    expect(sqlite.holdsNone()).toBe(true);
    await sqlite.putSubscription(subscription);
    expect(sqlite.holdsNone()).toBe(false);
    await sqlite.putSubscription({ ...subscription, endpoint: "https://push.example/2", owner: "login-b" });
    expect(await sqlite.deleteSubscription(subscription.endpoint)).toBe(true);
    expect(sqlite.holdsNone()).toBe(false);
    expect(await sqlite.deleteOwner("login-b")).toBe(1);
    expect(sqlite.holdsNone()).toBe(true);
    // A file opened with a row in it holds one; a list that finds the table emptied says so.
    await sqlite.putSubscription(subscription);
    const reopened = sqlitePushStore(db);
    expect(reopened.holdsNone()).toBe(false);
    db.prepare("DELETE FROM push_subscriptions").run();
    expect(await reopened.listSubscriptions()).toEqual([]);
    expect(reopened.holdsNone()).toBe(true);
  });

  it("push-close: a file whose push_open has no given_up_at gets it, its notes as never given up, and the first give-up is kept", async () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE push_open (rpc_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, opened_at INTEGER NOT NULL)");
    db.prepare("INSERT INTO push_open VALUES (?, ?, ?)").run("rpc-before", "s1", 1_700_000_000_000);
    const open = sqlitePushStore(db).openRequests!;
    expect(await open.list()).toEqual([{ rpcId: "rpc-before", sessionId: "s1", openedAt: 1_700_000_000_000, givenUpAt: null }]);
    await open.gaveUp("rpc-before", 1_700_000_000_500);
    await open.gaveUp("rpc-before", 1_700_000_000_900);
    expect(await sqlitePushStore(db).openRequests!.list()).toEqual([{ rpcId: "rpc-before", sessionId: "s1", openedAt: 1_700_000_000_000, givenUpAt: 1_700_000_000_500 }]);
  });

  it("push-close: sends no close push to a device whose push service removes a site for pushes that show nothing (Apple's)", async () => {
    await start({ takesSilentPushes: (endpoint) => endpoint !== quiet.subscription.endpoint });
    const quiet = fake.device();
    const other = fake.device();
    await subscribe(quiet);
    await subscribe(other);
    service.onFrame(requested("rpc-1"));
    await Promise.all([fake.waitFor(quiet, 1), fake.waitFor(other, 1)]);
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect([quiet, other].map((device) => fake.received.filter((push) => push.deviceId === device.id).map((push) => push.payload.kind))).toEqual([["request"], ["request", "resolved"]]);
  });

  it("push-actions: offers an approval's Allow once and Deny as actions with the answers the host checks", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    const approval = { server: "files", tool: "write_file", arguments: "{}" };
    service.onFrame(requested("rpc-a", { approval, questions: approvalQuestions(approval) }));
    const [push] = await fake.waitFor(device, 1);
    expect(push!.payload.title).toBe("Claude Code: Tool approval");
    expect(push!.payload.actions).toEqual([
      { action: "a0", title: "Allow once", answers: [{ id: "approval", selected: ["Allow once"] }, { id: "approval-reason", selected: [] }] },
      { action: "a1", title: "Deny", answers: [{ id: "approval", selected: ["Deny"] }, { id: "approval-reason", selected: [] }] },
    ]);
  });

  it("push-actions: offers a destructive tool's approval Deny alone, titled so; allowing it takes the app", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    const approval = { server: "db", tool: "drop_table", arguments: '{"table":"users"}', destructive: true };
    service.onFrame(requested("rpc-d", { approval, questions: approvalQuestions(approval) }));
    const [push] = await fake.waitFor(device, 1);
    expect(push!.payload.title).toBe("Claude Code: Destructive tool approval");
    expect(push!.payload.actions).toEqual([{ action: "a0", title: "Deny", answers: [{ id: "approval", selected: ["Deny"] }, { id: "approval-reason", selected: [] }] }]);
  });

  it("push-actions: offers no actions when two options would read the same once their titles are cut", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    const stem = "Run the database migration on the production cluster";
    const alike = [`${stem} (us-east-1)`, `${stem} (eu-west-1)`];
    const distinct = ["Run the migration on us-east-1", "Run the migration on eu-west-1"];
    service.onFrame(requested("rpc-alike", { questions: [{ id: "where", question: "Where?", options: alike.map((label) => ({ label })) }] }));
    service.onFrame(requested("rpc-distinct", { questions: [{ id: "where", question: "Where?", options: distinct.map((label) => ({ label })) }] }));
    const pushes = await fake.waitFor(device, 2);
    expect(pushes.map((push) => push.payload.actions)).toEqual([
      [],
      distinct.map((label, index) => ({ action: `a${index}`, title: label, answers: [{ id: "where", selected: [label] }] })),
    ]);
  });

  it("push-actions: offers an ACP agent's own allow-once and reject-once choices, never an always, with the answers the host checks", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    const approval: ToolApproval = { server: "Test Agent", tool: "npm test", arguments: "{}", choices: ["Always allow", "Allow", "Reject"], choiceKinds: ["allow_always", "allow_once", "reject_once"] };
    const onlyAlways: ToolApproval = { ...approval, choices: ["Always allow", "Reject always"], choiceKinds: ["allow_always", "reject_always"] };
    service.onFrame(requested("rpc-acp", { approval, questions: approvalQuestions(approval) }));
    service.onFrame(requested("rpc-always", { approval: onlyAlways, questions: approvalQuestions(onlyAlways) }));
    const pushes = await fake.waitFor(device, 2);
    expect(pushes.map((push) => push.payload.actions)).toEqual([
      [
        { action: "a0", title: "Allow", answers: [{ id: "approval", selected: ["Allow"] }, { id: "approval-reason", selected: [] }] },
        { action: "a1", title: "Reject", answers: [{ id: "approval", selected: ["Reject"] }, { id: "approval-reason", selected: [] }] },
      ],
      [],
    ]);
    // Each is an answer the host takes for that approval.
    for (const action of (pushes[0]!.payload as unknown as RequestPush).actions) expect(checkAnswers(approvalQuestions(approval), action.answers)).toBeNull();
  });

  it("push-actions, push-size: offers no actions for several questions, many options, multi-select or a plan, and keeps a huge request within 4 KB", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    const long = "x".repeat(4000);
    const many = Array.from({ length: 20 }, (_, index) => ({ id: `q${index}`, header: "h".repeat(100), question: long, options: Array.from({ length: 50 }, (__, option) => ({ label: `${option}${"o".repeat(190)}` })) }));
    service.onFrame(requested("rpc-big", { questions: many }));
    service.onFrame(requested("rpc-multi", { questions: [{ id: "q", question: "Which?", multiSelect: true, options: [{ label: "A" }, { label: "B" }] }] }));
    service.onFrame(requested("rpc-four", { questions: [{ id: "q", question: "Which?", options: ["A", "B", "C", "D"].map((label) => ({ label })) }] }));
    const pushes = await fake.waitFor(device, 3);
    for (const push of pushes) {
      expect(push.status).toBe(201);
      expect(push.payload.actions).toEqual([]);
      expect(push.bytes).toBeLessThanOrEqual(4096);
      expect(Buffer.byteLength(JSON.stringify(push.payload))).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    }
    expect(pushes[0]!.payload.body).toMatch(/…\s\(\+19 more\)$/);
  });

  it("push-hide: hides the text for a device that asked so: a generic line, no actions", async () => {
    await start();
    const device = fake.device();
    await subscribe(device, { hideText: true });
    service.onFrame(requested("rpc-1"));
    const [push] = await fake.waitFor(device, 1);
    expect(push!.payload).toMatchObject({ title: "Parley", body: "Parley has a question for you", actions: [] });
    expect(JSON.stringify(push!.payload)).not.toContain("production");
  });

  it("push-gone: drops a subscription the push service answers 410 or 404 for", async () => {
    await start();
    const gone = fake.device();
    const missing = fake.device();
    const kept = fake.device();
    for (const device of [gone, missing, kept]) await subscribe(device);
    fake.answer(gone, { status: 410 });
    fake.answer(missing, { status: 404 });
    service.onFrame(requested("rpc-1"));
    await service.idle();
    const listed = (await (await call("GET", "/api/push/subscriptions")).json()) as { subscriptions: { endpoint: string }[] };
    expect(listed.subscriptions.map((subscription) => subscription.endpoint)).toEqual([kept.subscription.endpoint]);
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "cancelled" });
    await service.idle();
    expect(fake.received.filter((push) => push.deviceId === gone.id)).toHaveLength(1);
    expect(logs.filter((entry) => entry.event === "push/subscription-gone").map((entry) => entry.status).sort()).toEqual([404, 410]);
  });

  it("push-retry: retries a request push after its Retry-After, or with a doubling backoff up to its bound, for as long as its request is pending", async () => {
    await start({ retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1000 } });
    const limited = fake.device();
    const failing = fake.device();
    const distant = fake.device();
    const eager = fake.device();
    for (const device of [limited, failing, distant, eager]) await subscribe(device);
    fake.answer(limited, { status: 429, retryAfter: "7" });
    // Past the close push's 3 retries, and past the 1 s bound of a doubling wait, which then stays at 1 s.
    fake.answer(failing, ...[503, 502, 500, 500, 503, 503].map((status) => ({ status })));
    fake.answer(distant, { status: 429, retryAfter: "3600" });
    // A Retry-After of 0 or in the past waits the backoff all the same.
    fake.answer(eager, { status: 503, retryAfter: "0" }, { status: 429, retryAfter: "Thu, 01 Jan 1970 00:00:00 GMT" });
    service.onFrame(requested("rpc-1"));
    await service.idle();
    const statuses = (device: FakeDevice) => fake.received.filter((push) => push.deviceId === device.id).map((push) => push.status);
    expect([limited, failing, distant, eager].map(statuses)).toEqual([
      [429, 201],
      [503, 502, 500, 500, 503, 503, 201],
      [429, 201],
      [503, 429, 201],
    ]);
    expect([...sleeps].sort((a, b) => a - b)).toEqual([100, 100, 200, 200, 400, 800, 1000, 1000, 7000, 3_600_000]);
    expect(logs.filter((entry) => entry.event === "push/gave-up")).toEqual([]);
  });

  it("push-retry: gives a request push up when its push service asks for a wait past the push's 24 h", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    fake.answer(device, { status: 429, retryAfter: String(25 * 60 * 60) });
    service.onFrame(requested("rpc-1"));
    await service.idle();
    expect([fake.received.map((push) => push.status), sleeps]).toEqual([[429], []]);
    expect(logs.filter((entry) => entry.event === "push/gave-up").map((entry) => entry.retryAfterMs)).toEqual([25 * 60 * 60 * 1000]);
  });

  it("push-retry: retries a close push a few times, within its bound, then gives it up", async () => {
    await start({ retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 10_000 } });
    const failing = fake.device();
    const distant = fake.device();
    for (const device of [failing, distant]) await subscribe(device);
    service.onFrame(requested("rpc-1"));
    await Promise.all([fake.waitFor(failing, 1), fake.waitFor(distant, 1)]);
    sleeps.length = 0;
    fake.answer(failing, { status: 503 }, { status: 502 }, { status: 500 }, { status: 500 });
    fake.answer(distant, { status: 429, retryAfter: "3600" });
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    const closes = (device: FakeDevice) => fake.received.filter((push) => push.deviceId === device.id && push.payload.kind === "resolved").map((push) => push.status);
    expect([closes(failing), closes(distant)]).toEqual([[503, 502, 500, 500], [429]]);
    expect([...sleeps].sort((a, b) => a - b)).toEqual([100, 200, 400]);
    expect(logs.filter((entry) => entry.event === "push/gave-up").map((entry) => entry.retryAfterMs).sort()).toEqual([3_600_000, null]);
  });

  it("push-retry: a request push waiting an hour to be retried stops waiting when its request ends, and its close push goes at once", async () => {
    // The service's own sleep: a resolve must wake the wait, or this test outlasts its timeout by an hour.
    await start({ sleep: undefined });
    const device = fake.device();
    await subscribe(device);
    fake.answer(device, { status: 429, retryAfter: "3600" });
    service.onFrame(requested("rpc-1"));
    await fake.waitFor(device, 1);
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect(fake.received.map((push) => [push.status, push.payload.kind])).toEqual([
      [429, "request"],
      [201, "resolved"],
    ]);
  });

  it("sends no request push for a request resolved before it went out, only the resolve", async () => {
    await start();
    const device = fake.device();
    await subscribe(device);
    service.onFrame(requested("rpc-1"));
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect(fake.received.map((push) => push.payload.kind)).toEqual(["resolved"]);
  });

  it("skips a request push whose request ended while it waited to be retried", async () => {
    await start({ sleep: async () => void service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "aborted" }) });
    const device = fake.device();
    await subscribe(device);
    fake.answer(device, { status: 503 });
    service.onFrame(requested("rpc-1"));
    await service.idle();
    expect(fake.received.map((push) => [push.status, push.payload.kind])).toEqual([
      [503, "request"],
      [201, "resolved"],
    ]);
  });
});

describe("subscriptions", () => {
  it("push-endpoint: takes https endpoints only, and http or https on 127.0.0.1 only with loopback allowed", async () => {
    expect(endpointAllowed("https://fcm.googleapis.com/fcm/send/abc", false)).toBe(true);
    expect(endpointAllowed("http://fcm.googleapis.com/fcm/send/abc", false)).toBe(false);
    expect(endpointAllowed("https://127.0.0.1:9/push", false)).toBe(false);
    expect(endpointAllowed("http://127.0.0.1:9/push", false)).toBe(false);
    expect(endpointAllowed("https://localhost/push", true)).toBe(false);
    expect(endpointAllowed("http://127.0.0.1:9/push", true)).toBe(true);
    expect(endpointAllowed("https://127.0.0.1:9/push", true)).toBe(true);
    expect(endpointAllowed("https://user:pw@push.example/x", false)).toBe(false);
    expect(endpointAllowed("file:///etc/passwd", true)).toBe(false);
    // This machine however it is written: a final dot, IPv6, IPv4 mapped into IPv6, "this host", a number.
    const local = ["https://localhost./push", "https://a.localhost../push", "https://[::1]/push", "https://[::]/push", "https://[::ffff:127.0.0.1]/push", "https://[::ffff:0.0.0.0]/push", "https://0.0.0.0/push", "https://2130706433/push", "https://0x7f.1/push"];
    expect(local.filter((endpoint) => endpointAllowed(endpoint, false))).toEqual([]);
    // With loopback allowed (tests) only 127.0.0.1 itself is taken, which the URL parser makes of the two numbers.
    expect(local.filter((endpoint) => endpointAllowed(endpoint, true))).toEqual(["https://2130706433/push", "https://0x7f.1/push"]);
    expect(["https://[2001:db8::1]/push", "https://[::ffff:8.8.8.8]/push", "https://[64:ff9b::808:808]/push", "https://push.example./x"].map((endpoint) => endpointAllowed(endpoint, false))).toEqual([true, true, true, true]);
    // This machine's networks, where no push service is: private, shared, link-local (a cloud's metadata), multicast.
    const near = ["https://10.1.2.3/push", "https://172.16.0.1/push", "https://192.168.1.1/push", "https://100.64.0.1/push", "https://169.254.169.254/latest", "https://224.0.0.1/push", "https://[fd12::1]/push", "https://[fe80::1]/push", "https://[::ffff:10.0.0.1]/push", "https://[64:ff9b::a00:7]/push", "https://[64:ff9b:1::1]/push", "https://[fec0::1]/push", "https://[::a00:1]/push"];
    expect(near.filter((endpoint) => endpointAllowed(endpoint, false) || endpointAllowed(endpoint, true))).toEqual([]);
    await start({ allowLoopback: false });
    const refused = await call("POST", "/api/push/subscriptions", fake.device().subscription);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("INVALID_BODY");
  });

  it("push-endpoint: sends nothing to a name that resolves to this machine or its network, and does not retry it", async () => {
    const resolved: Record<string, string[]> = { "push.example.test": ["127.0.0.1"], "mixed.example.test": ["8.8.8.8", "10.0.0.7"] };
    // Asked for one address (a Node without happy eyeballs), it answers the last, so no test ever connects to 8.8.8.8.
    const lookup: Lookup = (hostname, options, callback) => {
      const addresses = (resolved[hostname] ?? []).map((address) => ({ address, family: 4 }));
      if (options.all) callback(null, addresses);
      else callback(null, addresses.at(-1)!.address, 4);
    };
    await start({ allowLoopback: false, lookup });
    for (const host of Object.keys(resolved)) {
      const device = fake.device();
      await subscribe(device, { endpoint: device.subscription.endpoint.replace(/^http:\/\/127\.0\.0\.1:\d+/, `https://${host}`) });
    }
    service.onFrame(requested("rpc-1"));
    await service.idle();
    expect([fake.received, sleeps, logs.filter((entry) => entry.event !== "push/subscribed")]).toEqual([[], [], [{ event: "push/address-refused" }, { event: "push/address-refused" }]]);
    // Both stay listed: a name's addresses may change, and the next push looks it up again.
    const listed = (await (await call("GET", "/api/push/subscriptions")).json()) as { subscriptions: unknown[] };
    expect(listed.subscriptions).toHaveLength(2);
  });

  it("push-endpoint: a lookup of a push service's name fails when any address it gives is not public, with one address or all", () => {
    const answering = (addresses: string[]): Lookup => (_hostname, options, callback) =>
      options.all ? callback(null, addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))) : callback(null, addresses[0]!, 4);
    const outcome = (addresses: string[], all: boolean) => {
      let result: string | null = null;
      publicOnlyLookup(answering(addresses))("push.example.test", { all }, (error) => (result = error ? `${(error as { code?: string }).code}: ${error.message}` : "ok"));
      return result;
    };
    expect(outcome(["142.250.74.10"], false)).toBe("ok");
    expect(outcome(["142.250.74.10", "2a00:1450::1"], true)).toBe("ok");
    expect(outcome(["127.0.0.1"], false)).toBe("ENOTPUBLIC: push.example.test resolves to 127.0.0.1, which is no push service's address");
    expect(outcome(["142.250.74.10", "::1"], true)).toBe("ENOTPUBLIC: push.example.test resolves to ::1, which is no push service's address");
    expect(outcome(["169.254.169.254"], true)).toBe("ENOTPUBLIC: push.example.test resolves to 169.254.169.254, which is no push service's address");
  });

  it("push-subscribe: refuses a body that is not a PushSubscription", async () => {
    await start();
    const device = fake.device();
    for (const body of [{ endpoint: device.subscription.endpoint }, { ...device.subscription, keys: { p256dh: "!!", auth: "x" } }, { ...device.subscription, label: "l".repeat(101) }]) {
      expect((await call("POST", "/api/push/subscriptions", body)).status).toBe(400);
    }
  });

  it("push-subscribe: lists every device with its label and which are this login's, replaces by endpoint, and deletes by endpoint", async () => {
    await start();
    const phone = fake.device();
    const laptop = fake.device();
    await subscribe(phone, { label: "Pixel 8 · Chrome" }, "login-phone");
    await subscribe(laptop, { label: "Linux · Chromium" }, "login-laptop");
    const again = await call("POST", "/api/push/subscriptions", { ...phone.subscription, label: "Pixel 8 · Chrome", hideText: true }, "login-phone");
    expect(again.status).toBe(200);
    const listed = (await (await call("GET", "/api/push/subscriptions", undefined, "login-phone")).json()) as { subscriptions: { endpoint: string; label: string; mine: boolean; hideText: boolean }[] };
    expect(listed.subscriptions.map(({ label, mine, hideText }) => ({ label, mine, hideText }))).toEqual([
      { label: "Pixel 8 · Chrome", mine: true, hideText: true },
      { label: "Linux · Chromium", mine: false, hideText: false },
    ]);
    expect((await call("DELETE", "/api/push/subscriptions", { endpoint: laptop.subscription.endpoint })).status).toBe(204);
    expect((await call("DELETE", "/api/push/subscriptions", { endpoint: laptop.subscription.endpoint })).status).toBe(404);
    service.onFrame(requested("rpc-1"));
    await service.idle();
    expect(fake.received.map((push) => push.deviceId)).toEqual([phone.id]);
  });

  it("push-owner: belongs to the login that made it: follows its rotation, goes with its revocation or when it is no longer live", async () => {
    const live = new Set<string>();
    await start({ ownerLive: async (owner) => live.has(owner) });
    const owners = loginOwner(() => COOKIE);
    const digestOf = (login: string) => owners({ headers: { cookie: `${COOKIE}=${login}` } } as never);
    expect(digestOf("login-a")).toBe(loginDigest("login-a"));
    const [a, b, c] = [fake.device(), fake.device(), fake.device()];
    await subscribe(a, {}, "login-a");
    await subscribe(b, {}, "login-b");
    await subscribe(c, {}, "login-c");
    await service.loginRotated(digestOf("login-a"), digestOf("login-a2"));
    await service.loginRevoked(digestOf("login-b"));
    live.add(digestOf("login-a2"));
    service.onFrame(requested("rpc-1"));
    await service.idle();
    expect(fake.received.map((push) => push.deviceId)).toEqual([a.id]);
    const listed = (await (await call("GET", "/api/push/subscriptions", undefined, "login-a2")).json()) as { subscriptions: { endpoint: string; mine: boolean }[] };
    expect(listed.subscriptions).toEqual([expect.objectContaining({ endpoint: a.subscription.endpoint, mine: true })]);
    expect(loginOwner(() => null)({ headers: {} } as never)).toBe("host");
  });

  it("push-owner: closes a device's notifications when its login ends, by logout or when found dead: every request still pending and the one closing", async () => {
    const live = new Set([loginDigest("login-a"), loginDigest("login-b"), loginDigest("login-c")]);
    await start({ ownerLive: async (owner) => live.has(owner) });
    const [a, b, c] = [fake.device(), fake.device(), fake.device()];
    await subscribe(a, {}, "login-a");
    await subscribe(b, {}, "login-b");
    await subscribe(c, {}, "login-c");
    service.onFrame(requested("rpc-1"));
    service.onFrame(requested("rpc-2", { sessionId: "s2" }));
    service.onFrame(requested("rpc-3", { sessionId: "s3" }), "elsewhere");
    await service.idle();
    const seen = (device: FakeDevice, from: number) => fake.received.slice(from).filter((push) => push.deviceId === device.id).map((push) => [push.payload.kind, push.payload.rpcId, push.payload.pending]);
    expect([a, b, c].map((device) => seen(device, 0))).toEqual([0, 1, 2].map(() => [["request", "rpc-1", 1], ["request", "rpc-2", 2]]));

    // Logout: that device alone gets the close of each pending request, its badge at 0.
    let from = fake.received.length;
    await service.loginRevoked(loginDigest("login-b"));
    await service.idle();
    expect([a, b, c].map((device) => seen(device, from))).toEqual([[], [["resolved", "rpc-1", 0], ["resolved", "rpc-2", 0], ["resolved", "rpc-3", 0]], []]);

    // A login found dead as a request closes: that device gets this close too, and the rest.
    live.delete(loginDigest("login-c"));
    from = fake.received.length;
    service.onFrame({ type: "question/resolved", rpcId: "rpc-1", sessionId: "s1", outcome: "answered" });
    await service.idle();
    expect([a, b, c].map((device) => seen(device, from))).toEqual([[["resolved", "rpc-1", 2]], [], [["resolved", "rpc-2", 0], ["resolved", "rpc-3", 0], ["resolved", "rpc-1", 0]]]);
    const listed = (await (await call("GET", "/api/push/subscriptions", undefined, "login-a")).json()) as { subscriptions: { endpoint: string }[] };
    expect(listed.subscriptions.map((subscription) => subscription.endpoint)).toEqual([a.subscription.endpoint]);
  });

  it("push-key: makes the VAPID keys once and keeps them in the store's own tables", async () => {
    const db = new Database(":memory:");
    store = sqlitePushStore(db);
    await start();
    const first = service.publicKey;
    const device = fake.device();
    await subscribe(device, { label: "Pixel 8 · Chrome" });
    await service.close();
    const again = await createPushService({ store: sqlitePushStore(db), log: () => undefined, allowLoopback: true, ownerOf: () => "host" });
    expect(again.publicKey).toBe(first);
    expect((await (await call("GET", "/api/push/key")).json()) as unknown).toEqual({ publicKey: first });
    again.onFrame(requested("rpc-1"));
    const [push] = await fake.waitFor(device, 1);
    expect(push!.vapidKey).toBe(first);
    await again.close();
  });
});

describe("Retry-After", () => {
  it("reads seconds and HTTP dates", () => {
    expect(retryAfterMs("120", 0)).toBe(120_000);
    expect(retryAfterMs("Thu, 01 Jan 1970 00:00:30 GMT", 10_000)).toBe(20_000);
    expect(retryAfterMs("soon", 0)).toBeNull();
    expect(retryAfterMs(null, 0)).toBeNull();
  });
});
