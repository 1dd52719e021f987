import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DownFrame } from "../../protocol/schemas";
import { silentLogger } from "../log";
import { postgresBinDir, startTestPostgres, type TestPostgres } from "../../testing/host/postgres";
import { adoptExpired, type Adoption } from "./adopt";
import type { ClusterView } from "./cluster-view";
import { openPgStore, type PgStore } from "./store";

const DEAD = "dead-host";
const AT = "2026-12-01T10:00:00.000Z";

/** A view that knows nothing of the dead host: a host started after it died. */
const freshView = { askedBy: () => [], takeBusy: () => new Set<string>() } as unknown as ClusterView;

/**
 * Writes what a host that died `minutesAgo` left: its expired lease, a chat `s<n>`, and a question `r<n>` asked for a
 * running tool row `m<n>` (call `c<n>`), answered through another host.
 */
async function leaveDeadHost(databaseUrl: string, instance = DEAD, n = 1, minutesAgo = 1): Promise<void> {
  const dead = await openPgStore({ url: databaseUrl, instance });
  try {
    await dead.query(`INSERT INTO hosts (instance, url, lease_until) VALUES ($1, 'http://127.0.0.1:1', now() - interval '${minutesAgo} minutes')`, [instance]);
    await dead.insertSession({ id: `s${n}`, title: "Chat", autoTitle: false, createdAt: AT, updatedAt: AT });
    const tool = { callId: `c${n}`, name: "ask_user_question", args: { questions: [{ id: "go", question: "Go?" }] }, status: "running" as const };
    await dead.insertMessage({ id: `m${n}`, sessionId: `s${n}`, role: "tool", createdAt: AT, tool });
    const frame = { type: "question/requested", rpcId: `r${n}`, sessionId: `s${n}`, questions: tool.args.questions, createdAt: AT };
    const response = { type: "answer", rpcId: `r${n}`, sessionId: `s${n}`, answers: [{ id: "go", selected: [], custom: "yes" }] };
    await dead.query("INSERT INTO pending (rpc_id, session_id, owner, frame, state, response, message_id) VALUES ($1, $2, $3, $4, 'answered', $5, $6)", [`r${n}`, `s${n}`, instance, JSON.stringify(frame), JSON.stringify(response), `m${n}`]);
  } finally {
    await dead.close();
  }
}

/** The adopted answer as a tool's result, as the host's own settling gives it. */
const settleAnswer: Adoption["settle"] = (_tool, given) => (given === "cancelled" ? null : { outcome: { isError: false, text: JSON.stringify(given), outcome: { kind: "answered", answers: given.answers } } });

describe.skipIf(postgresBinDir() === null)("adoptExpired [cluster-adopt]", () => {
  let postgres: TestPostgres;
  let store: PgStore;

  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await postgres?.stop();
  });

  it("adopts a dead host in one transaction: one that fails partway leaves it whole, to be adopted again, and tells no host anything", async () => {
    const databaseUrl = await postgres.createDatabase();
    await leaveDeadHost(databaseUrl);
    store = await openPgStore({ url: databaseUrl, instance: "adopter" });
    const emitted: DownFrame[] = [];
    const adoption = (settle: Adoption["settle"]): Adoption => ({ store, log: silentLogger, instance: "adopter", view: freshView, settle, emit: (frame) => emitted.push(frame) });
    const state = async () => ({
      leases: (await store.query<{ instance: string }>("SELECT instance FROM hosts ORDER BY instance", [], false)).rows.map((row) => row.instance),
      pending: (await store.query<{ state: string }>("SELECT state FROM pending", [], false)).rows.map((row) => row.state),
      tools: (await store.listMessages("s1")).map((message) => [message.tool?.status, message.interrupted ?? false]),
    });

    await expect(
      adoptExpired(
        adoption(() => {
          throw new Error("the adopter failed halfway");
        }),
      ),
    ).rejects.toThrow("the adopter failed halfway");
    expect(await state()).toEqual({ leases: [DEAD], pending: ["answered"], tools: [["running", false]] });
    expect(emitted).toEqual([]);

    await adoptExpired(adoption(settleAnswer));
    expect(await state()).toEqual({ leases: [], pending: ["answered"], tools: [["ok", true]] });
    expect(emitted.map((frame) => (frame.type === "message/upserted" ? [frame.type, frame.message.id, frame.message.tool?.status] : frame.type === "question/resolved" ? [frame.type, frame.rpcId, frame.outcome, frame.cause] : frame.type === "session/upserted" ? [frame.type, frame.session.id, frame.session.state] : [frame.type]))).toEqual([
      ["question/resolved", "r1", "answered", "host-lost"],
      ["message/upserted", "m1", "ok"],
      ["session/upserted", "s1", "idle"],
    ]);

    // Adopted: a second pass finds nothing to do.
    emitted.length = 0;
    await adoptExpired(adoption(() => null));
    expect(emitted).toEqual([]);
  });

  it("adopts every other dead host while one keeps failing, oldest lease first, and reports the failure", async () => {
    const databaseUrl = await postgres.createDatabase();
    await leaveDeadHost(databaseUrl, "dead-first", 1, 2);
    await leaveDeadHost(databaseUrl, "dead-second", 2, 1);
    const adopter = await openPgStore({ url: databaseUrl, instance: "adopter" });
    try {
      const emitted: DownFrame[] = [];
      const failing: Adoption["settle"] = (tool, given) => {
        if (tool.callId === "c1") throw new Error("this row cannot be settled");
        return settleAnswer(tool, given);
      };
      const adoption: Adoption = { store: adopter, log: silentLogger, instance: "adopter", view: freshView, settle: failing, emit: (frame) => emitted.push(frame) };
      await expect(adoptExpired(adoption)).rejects.toThrow("this row cannot be settled");
      expect((await adopter.query<{ instance: string }>("SELECT instance FROM hosts", [], false)).rows.map((row) => row.instance)).toEqual(["dead-first"]);
      expect(emitted.filter((frame) => frame.type === "question/resolved").map((frame) => frame.type === "question/resolved" && frame.rpcId)).toEqual(["r2"]);
      expect((await adopter.listMessages("s2")).map((message) => message.tool?.status)).toEqual(["ok"]);
      expect((await adopter.listMessages("s1")).map((message) => message.tool?.status)).toEqual(["running"]);
    } finally {
      await adopter.close();
    }
  });
});
