import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { DownFrame } from "../../protocol/schemas";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { CHANNEL } from "./channel";
import { createOutbox, type Outbox } from "./outbox";
import { openPgStore, type PgStore } from "./store";

const ME = "frozen-host";
const AT = "2026-12-01T10:00:00.000Z";

const asked = (rpcId: string): DownFrame => ({ type: "question/requested", rpcId, sessionId: "s1", questions: [{ id: "go", question: "Go?" }], createdAt: AT });

/** What a LISTEN connection heard, in order; `settle()` waits until a marker notified after everything before it arrived. */
async function listen(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const heard: string[] = [];
  const waiting = new Map<string, () => void>();
  client.on("notification", (message) => {
    if (message.channel !== CHANNEL || message.payload === undefined) return;
    const marker = waiting.get(message.payload);
    if (marker) return marker();
    heard.push(message.payload);
  });
  await client.query(`LISTEN ${CHANNEL}`);
  return {
    /** The frames heard, once a marker sent after every statement so far has come back (notifications arrive in commit order). */
    async frames(): Promise<DownFrame[]> {
      const marker = `marker-${Math.random()}`;
      const back = new Promise<void>((resolve) => waiting.set(marker, resolve));
      await client.query("SELECT pg_notify($1, $2)", [CHANNEL, marker]);
      await back;
      return heard.map((payload) => (JSON.parse(payload) as { f: DownFrame }).f);
    },
    end: () => client.end(),
  };
}

describe.skipIf(postgresBinDir() === null)("a host's outbox against adoption [cluster-adopt]", { timeout: 30_000 }, () => {
  const postgres = useTestPostgres();
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  async function setUp(leased: boolean) {
    const url = await postgres().createDatabase();
    const store: PgStore = await openPgStore({ url, instance: ME });
    closing.push(() => store.close());
    if (leased) await store.query("INSERT INTO hosts (instance, url, lease_until) VALUES ($1, 'http://127.0.0.1:1', now() - interval '1 second')", [ME]);
    const heard = await listen(url);
    closing.push(() => heard.end());
    const delivered: string[] = [];
    const lost: number[] = [];
    const outbox: Outbox = createOutbox({
      store,
      instance: ME,
      ruleOf: () => undefined,
      messageOf: () => undefined,
      ownTurns: () => [],
      onFailed: (error) => {
        throw error;
      },
      onAdopted: () => lost.push(1),
      deliver: (frame) => delivered.push(frame.type),
    });
    const pendingRows = async () => (await store.query<{ rpc_id: string; state: string }>("SELECT rpc_id, state FROM pending ORDER BY rpc_id", [], false)).rows;
    return { url, store, heard, outbox, delivered, lost, pendingRows };
  }

  it("writes and notifies a question while its lease row is there, even past its time (no host adopted it yet)", async () => {
    const { heard, outbox, delivered, lost, pendingRows } = await setUp(true);
    outbox.publish(asked("r1"));
    await outbox.idle();
    expect(await pendingRows()).toEqual([{ rpc_id: "r1", state: "pending" }]);
    expect(await heard.frames()).toEqual([asked("r1")]);
    expect({ delivered, lost }).toEqual({ delivered: ["question/requested"], lost: [] });
  });

  it("once another host adopted it (its lease row is gone) sends nothing of its own, and says so; an adoption it made still goes", async () => {
    const { heard, outbox, delivered, lost, pendingRows } = await setUp(false);
    const session = { id: "s1", title: "Chat", createdAt: AT, updatedAt: AT, revision: 2 };
    const waiting: DownFrame = { type: "session/upserted", session: { ...session, state: "waiting" } };
    const row: DownFrame = { type: "message/upserted", message: { id: "m1", sessionId: "s1", role: "assistant", createdAt: AT, text: "Woke up" } };
    const resolved: DownFrame = { type: "question/resolved", rpcId: "r0", sessionId: "s1", outcome: "answered" };
    const idle: DownFrame = { type: "session/upserted", session: { ...session, state: "idle" } };
    // What an adoption of a third host publishes: only ends things, whatever the row.
    const stopped: DownFrame = { type: "message/upserted", message: { id: "m2", sessionId: "s2", role: "assistant", createdAt: AT, text: "Cut off", interrupted: true } };
    outbox.publish(waiting);
    outbox.publish(asked("r1"));
    outbox.publish(row);
    outbox.publish(resolved);
    outbox.publish(idle);
    outbox.publish(stopped, true);
    await outbox.idle();
    expect(await pendingRows()).toEqual([]);
    expect(await heard.frames()).toEqual([stopped]);
    // Its own tabs still hear of them all (they are closed next, as the host stops serving).
    expect(delivered).toEqual(["session/upserted", "question/requested", "message/upserted", "question/resolved", "session/upserted", "message/upserted"]);
    expect(lost).toEqual([1]);
  });

  it("waits for an adoption under way and then writes nothing, so the adopter cannot miss a question written meanwhile", async () => {
    const { url, heard, outbox, lost, pendingRows } = await setUp(true);
    const adopter = new pg.Client({ connectionString: url });
    await adopter.connect();
    closing.push(() => adopter.end());
    // The adopter's transaction, as adoptHost's: the lease goes first, then the dead host's pending questions are closed.
    await adopter.query("BEGIN");
    await adopter.query("DELETE FROM hosts WHERE instance = $1 AND lease_until < now()", [ME]);
    await adopter.query("UPDATE pending SET state = 'aborted' WHERE owner = $1 AND state = 'pending'", [ME]);
    outbox.publish(asked("r1"));
    // The outbox either finishes at once (and wrote behind the adopter's back) or waits on the lease row.
    let raced = false;
    const blocked = async () => {
      while (!raced) {
        const waits = await adopter.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()");
        if (waits.rows[0]!.n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const watching = blocked();
    await Promise.race([outbox.idle(), watching]);
    raced = true;
    await watching;
    await adopter.query("COMMIT");
    await outbox.idle();
    expect(await pendingRows()).toEqual([]);
    expect(await heard.frames()).toEqual([]);
    expect(lost).toEqual([1]);
  });

  it("[cluster-fanout] sends a resolution whose send failed again when asked (a host back from an outage), and nothing else", async () => {
    const url = await postgres().createDatabase();
    const store: PgStore = await openPgStore({ url, instance: ME });
    closing.push(() => store.close());
    await store.query("INSERT INTO hosts (instance, url, lease_until) VALUES ($1, 'http://127.0.0.1:1', now() + interval '1 minute')", [ME]);
    await store.query("INSERT INTO pending (rpc_id, session_id, owner, frame, state) VALUES ('r1', 's1', $1, '{}', 'answered')", [ME]);
    const heard = await listen(url);
    closing.push(() => heard.end());
    let reachable = false;
    const flaky = Object.create(store) as PgStore;
    flaky.query = ((...args: Parameters<PgStore["query"]>) => (reachable ? store.query(...args) : Promise.reject(new Error("connection lost")))) as PgStore["query"];
    const failures: string[] = [];
    const outbox = createOutbox({
      store: flaky,
      instance: ME,
      ruleOf: () => undefined,
      messageOf: () => undefined,
      ownTurns: () => ["s1"],
      onFailed: (error) => failures.push((error as Error).message),
      onAdopted: () => undefined,
      deliver: () => undefined,
    });
    const resolved: DownFrame = { type: "question/resolved", rpcId: "r1", sessionId: "s1", outcome: "answered" };
    const row: DownFrame = { type: "message/upserted", message: { id: "m1", sessionId: "s1", role: "assistant", createdAt: AT, text: "Done" } };
    outbox.publish(resolved);
    outbox.publish(row);
    await outbox.idle();
    expect([failures, outbox.unsent()]).toEqual([["connection lost"], 1]);
    reachable = true;
    outbox.resendFailed();
    await outbox.idle();
    expect(outbox.unsent()).toBe(0);
    expect(await heard.frames()).toEqual([resolved]);
  });
});
