import { afterEach, describe, expect, it, vi } from "vitest";
import type { DownFrame, QuestionRequestedFrame, ToolCall } from "../../protocol/schemas";
import { silentLogger } from "../log";
import { stoppedTool } from "../sessions/history";
import { createCleanup } from "../../testing/host/cleanup";
import { api, connect, createSession, startTestServer } from "../../testing/host/harness";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { createClusterView } from "./cluster-view";
import { createOrphanSweep } from "./orphans";
import { openPgStore, type PgStore } from "./store";

const cleanup = createCleanup();
const stores: PgStore[] = [];
afterEach(async () => {
  await cleanup.closeAll();
  for (const store of stores.splice(0)) await store.close();
});

const AT = "2026-12-01T10:00:00.000Z";
const asked = (rpcId: string, sessionId: string): QuestionRequestedFrame => ({ type: "question/requested", rpcId, sessionId, questions: [{ id: "go", question: "Go?" }], createdAt: AT });
const busy = (id: string): DownFrame => ({ type: "session/upserted", session: { id, title: "Chat", createdAt: AT, updatedAt: AT, state: "waiting" } });

/** A frame as a short list: its type and what tells it apart. */
function brief(frame: DownFrame): unknown[] {
  if (frame.type === "question/resolved") return [frame.type, frame.rpcId, frame.outcome, frame.cause];
  if (frame.type === "message/upserted") return [frame.type, frame.message.id, frame.message.tool?.status, frame.message.interrupted];
  if (frame.type === "session/upserted") return [frame.type, frame.session.id, frame.session.state];
  return [frame.type];
}

/**
 * What an adopter that died between its commit and its frames leaves: the dead host's lease gone, its open questions
 * aborted, its running tool rows stopped and interrupted, its turns rows gone, and no host told.
 */
async function adoptSilently(store: PgStore, owner: string): Promise<void> {
  await store.transaction(async (client) => {
    await client.query("DELETE FROM hosts WHERE instance = $1", [owner]);
    await client.query("UPDATE pending SET state = 'aborted' WHERE owner = $1 AND state = 'pending'", [owner]);
    const running = await client.query<{ id: string; tool: string }>("SELECT id, tool FROM messages WHERE owner = $1 AND tool_status = 'running'", [owner]);
    for (const row of running.rows) {
      const tool = stoppedTool(JSON.parse(row.tool) as ToolCall);
      await client.query("UPDATE messages SET tool = $2, tool_status = 'stopped', interrupted = TRUE WHERE id = $1", [row.id, JSON.stringify(tool)]);
    }
    await client.query("DELETE FROM turns WHERE owner = $1", [owner]);
  }, false);
}

describe.skipIf(postgresBinDir() === null)("a gone host's leftovers no host was told of [cluster-adopt]", { timeout: 30_000 }, () => {
  const postgres = useTestPostgres();

  it("settles them on this host once their host was found gone a lease ago: questions as their rows say, interrupted rows, sessions no live turn holds", async () => {
    const databaseUrl = await postgres().createDatabase();
    const gone = await openPgStore({ url: databaseUrl, instance: "gone" });
    const store = await openPgStore({ url: databaseUrl, instance: "watcher" });
    stores.push(gone, store);
    await store.query("INSERT INTO hosts (instance, url, lease_until) VALUES ('watcher', 'http://127.0.0.1:1', now() + interval '1 hour'), ('alive', 'http://127.0.0.1:2', now() + interval '1 hour'), ('adopted', 'http://127.0.0.1:3', now() - interval '1 hour')", [], false);
    for (const id of ["s1", "s2", "s3", "s4"]) await gone.insertSession({ id, title: "Chat", autoTitle: false, createdAt: AT, updatedAt: AT });
    await gone.insertMessage({ id: "m1", sessionId: "s1", role: "tool", createdAt: AT, interrupted: true, tool: { callId: "c1", name: "ask_user_question", args: {}, status: "stopped" } });
    await gone.insertMessage({ id: "m0", sessionId: "s4", role: "tool", createdAt: AT, interrupted: true, tool: { callId: "c0", name: "ask_user_question", args: {}, status: "stopped" } });
    const pending = [
      ["r1", "s1", "gone", "aborted"],
      ["r2", "s2", "gone", "answered"],
      ["r3", "s3", "alive", "pending"],
      ["r4", "s3", "adopted", "aborted"],
    ];
    for (const [rpcId, sessionId, owner, state] of pending) await store.query("INSERT INTO pending (rpc_id, session_id, owner, frame, state) VALUES ($1, $2, $3, '{}', $4)", [rpcId, sessionId, owner, state], false);
    // s2's turn is another live host's by now: it is not published idle.
    await store.query("INSERT INTO turns (session_id, owner) VALUES ('s2', 'alive')", [], false);
    const view = createClusterView(store);
    view.track(asked("r1", "s1"), "gone", undefined);
    view.track(asked("r2", "s2"), "gone", undefined);
    view.track(busy("s1"), "gone", undefined);
    view.track(asked("r3", "s3"), "alive", undefined);
    view.track(asked("r4", "s3"), "adopted", undefined);
    const told: [DownFrame, string][] = [];
    let clock = 0;
    const sweep = createOrphanSweep({ store, instance: "watcher", view, log: silentLogger, graceMs: 1000, now: () => clock, deliver: (frame, owner) => (told.push([frame, owner]), view.track(frame, owner, undefined)) });

    // First look: "gone" may be an adoption under way, whose frames are still to come. "adopted" is listed (its lease
    // lapsed, its adoption to come): it is not gone.
    await sweep.sweep();
    expect(told).toEqual([]);
    // Its adopter's frames arrive within the grace for one of its questions; a look within the grace settles nothing.
    view.track({ type: "question/resolved", rpcId: "r2", sessionId: "s2", outcome: "answered", cause: "host-lost" }, "elsewhere", undefined);
    clock = 999;
    await sweep.sweep();
    expect(told).toEqual([]);

    clock = 1000;
    await sweep.sweep();
    expect(told.map(([frame, owner]) => [...brief(frame), owner])).toEqual([
      ["question/resolved", "r1", "aborted", "host-lost", "gone"],
      ["message/upserted", "m1", "stopped", true, "gone"],
      ["session/upserted", "s1", "idle", "gone"],
    ]);
    expect([view.pending().map((question) => question.frame.rpcId), [...view.owners()].sort()]).toEqual([["r3", "r4"], ["adopted", "alive"]]);

    told.length = 0;
    clock = 5000;
    await sweep.sweep();
    expect(told).toEqual([]);
  });

  it("resolves on a live host, within a few renewals, the question and busy chat of a host whose adopter died before telling anyone", async () => {
    const databaseUrl = await postgres().createDatabase();
    const a = await startTestServer({ databaseUrl, leaseMs: 1_500 });
    const b = await startTestServer({ databaseUrl, leaseMs: 1_500 });
    cleanup.servers.push(a, b);
    const watcher = await connect(b.url);
    cleanup.sockets.push(watcher);
    const sessionId = await createSession(a.url);
    await api(a.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify({ questions: [{ id: "k", question: "Keep?", options: [{ label: "Yes" }, { label: "No" }] }] })}` } });
    const question = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    await watcher.waitFor((frame) => frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.state === "waiting");
    const health = await api(a.url, "/api/health");
    const owner = (health.body as { cluster: { instance: string } }).cluster.instance;
    const adopter = await openPgStore({ url: databaseUrl, instance: "late-adopter" });
    stores.push(adopter);
    // The tool row is written beside its frames: the adoption below takes it over once it is stored.
    await vi.waitFor(async () => expect((await adopter.query<{ tool_status: string }>("SELECT tool_status FROM messages WHERE owner = $1 AND role = 'tool'", [owner], false)).rows).toEqual([{ tool_status: "running" }]));
    const from = watcher.frames.length;

    await adoptSilently(adopter, owner);

    const resolved = await watcher.waitFor((frame, index) => index >= from && frame.type === "question/resolved" && frame.rpcId === question.rpcId, "the question resolved on B");
    await watcher.waitIdle(sessionId, from);
    const tools = watcher.frames.slice(from).filter((frame) => frame.type === "message/upserted" && frame.message.role === "tool");
    const fresh = await connect(b.url);
    cleanup.sockets.push(fresh);
    await fresh.waitFor((frame) => frame.type === "synced");
    const answer = await api(b.url, "/api/respond", { json: { type: "answer", rpcId: question.rpcId, sessionId, answers: [{ id: "k", selected: ["Yes"] }] } });
    const next = await api(b.url, `/api/sessions/${sessionId}/messages`, { json: { text: "hello again" } });
    expect({
      resolved: brief(resolved),
      tools: tools.map(brief),
      replayed: fresh.frames.filter((frame) => frame.type === "question/requested").length,
      answer: [answer.status, answer.body],
      next: next.status,
    }).toEqual({ resolved: ["question/resolved", question.rpcId, "aborted", "host-lost"], tools: [["message/upserted", expect.any(String), "stopped", true]], replayed: 0, answer: [200, { accepted: false, reason: "not-pending", detail: `question ${question.rpcId} is not pending (unknown, already answered, cancelled or aborted)` }], next: 202 });
  });
});
