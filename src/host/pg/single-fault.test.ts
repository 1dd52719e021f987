import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { api, createTestHosts } from "../../testing/host/harness";
import { createFaultyStore } from "../../testing/host/faulty-store";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import type { QuestionRequestedFrame, QuestionResolvedFrame } from "../../protocol/schemas";
import { NOTIFY_LIMIT_BYTES } from "./channel";
import { openPgStore, type PgStore } from "./store";

const hosts = createTestHosts();
afterEach(() => hosts.closeAll());

describe.skipIf(postgresBinDir() === null)("hosts sharing one Postgres when one statement fails", { timeout: 60_000 }, () => {
  const postgres = useTestPostgres();

  it("[cluster-turns] a message whose write failed gives the chat's turn back, so any host takes the next message", async () => {
    const databaseUrl = await postgres().createDatabase();
    const faulty = createFaultyStore(await openPgStore({ url: databaseUrl, instance: randomUUID() }));
    const a = await hosts.startSynced({ store: faulty.store });
    const b = await hosts.startSynced({ databaseUrl });
    const sessionId = ((await api(a.server.url, "/api/sessions", { json: {} })).body as { session: { id: string } }).session.id;

    faulty.failFrom(0, "STORAGE_BUSY");
    const failed = await api(a.server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "lost to a busy disk" } });
    expect([failed.status, (failed.body as { error: { code: string } }).error.code]).toEqual([503, "STORAGE_BUSY"]);
    faulty.heal();

    const mark = b.client.frames.length;
    const posted = await api(b.server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "hello" } });
    expect(posted.status).toBe(202);
    await b.client.waitFor((frame, index) => index >= mark && frame.type === "question/requested" && frame.sessionId === sessionId, "the scripted model's question");
  });

  it("[cluster-claims] an answer whose notice its owner could not read is settled at the owner's next renewal", async () => {
    const databaseUrl = await postgres().createDatabase();
    const store = await openPgStore({ url: databaseUrl, instance: randomUUID() });
    // The owner's one read of a large frame fails, as on a connection lost for that one query.
    let failReads = 1;
    const flaky = Object.create(store) as PgStore;
    flaky.query = ((...args: Parameters<PgStore["query"]>) =>
      args[0].startsWith("SELECT payload FROM large_frames") && failReads-- > 0 ? Promise.reject(new Error("connection lost")) : store.query(...args)) as PgStore["query"];
    const a = await hosts.startSynced({ store: flaky, leaseMs: 3000 });
    const b = await hosts.startSynced({ databaseUrl, leaseMs: 3000 });
    const sessionId = ((await api(a.server.url, "/api/sessions", { json: {} })).body as { session: { id: string } }).session.id;
    const ask = { questions: [{ id: "why", question: "Why?" }] };
    expect((await api(a.server.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify(ask)}` } })).status).toBe(202);
    const asked = await b.client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId);
    const custom = "因为".repeat(NOTIFY_LIMIT_BYTES / 3);
    const answered = await api(b.server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "why", selected: [], custom }] } });
    expect(answered.body).toEqual({ accepted: true });
    const resolved = await b.client.waitFor<QuestionResolvedFrame>((frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId);
    expect(resolved.outcome).toBe("answered");
    expect(failReads).toBe(0);
  });

  it("[cluster-lease] a host frozen inside an adoption holds up no other host: renewals go on, and the adoption is done once its lock is let go", async () => {
    const databaseUrl = await postgres().createDatabase();
    const store = await openPgStore({ url: databaseUrl, instance: randomUUID(), poolSize: 3, lockTimeoutMs: 300 });
    const b = await hosts.startSynced({ store, leaseMs: 1200 });
    // Host X died; another host began adopting it and froze with X's lease row locked.
    await store.query("INSERT INTO hosts (instance, url, lease_until) VALUES ('x', 'http://127.0.0.1:1', now() - interval '1 second')");
    const frozen = new pg.Client({ connectionString: databaseUrl });
    await frozen.connect();
    await frozen.query("BEGIN");
    await frozen.query("SELECT 1 FROM hosts WHERE instance = 'x' FOR UPDATE");
    const leaseOf = async () => (await store.query<{ ahead: boolean }>("SELECT lease_until > now() AS ahead FROM hosts WHERE instance = $1", [store.instance], false)).rows[0]?.ahead;
    // Three lease periods: a renewal stuck behind the adoption would have let B's lease lapse, or taken every connection.
    for (const _ of [1, 2, 3]) {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect([(await api(b.server.url, "/api/health")).status, await leaseOf()]).toEqual([200, true]);
    }
    await frozen.query("COMMIT");
    await frozen.end();
    const adopted = async () => (await store.query("SELECT 1 FROM hosts WHERE instance = 'x'", [], false)).rowCount === 0;
    for (let waited = 0; !(await adopted()) && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await adopted()).toBe(true);
  });
});
