import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../protocol/schemas";
import type { AgentsConfig } from "../acp/config";
import { TEST_AGENT_ARGS } from "../../testing/acp/test-agent";
import type { RunningServer } from "../server";
import { api, createTestHosts, type FrameClient } from "../../testing/host/harness";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { createTempDirs } from "../../testing/host/temp-dirs";

const hosts = createTestHosts();
const temp = createTempDirs("parley-acp-cluster-");
afterEach(async () => {
  await hosts.closeAll();
  temp.removeAll();
});

function agentsConfig(workspace: string, stateDir: string): AgentsConfig {
  return { file: null, workspaces: [workspace], agents: [{ name: "test", title: "Test Agent", command: process.execPath, args: TEST_AGENT_ARGS, env: { TEST_AGENT_STATE_DIR: stateDir }, disabled: false }] };
}

type Host = { server: RunningServer; client: FrameClient };

/** Posts on `host` and waits until every host's tab saw the turn end, so the next post on any host is taken. */
async function say(host: Host, every: Host[], sessionId: string, text: string) {
  const marks = every.map((each) => each.client.frames.length);
  const posted = await api(host.server.url, `/api/sessions/${sessionId}/messages`, { json: { text } });
  expect(posted.status).toBe(202);
  await Promise.all(every.map((each, index) => each.client.waitTurnEnd(sessionId, marks[index]!)));
}

describe.skipIf(postgresBinDir() === null)("ACP chats on hosts sharing one Postgres", { timeout: 60_000 }, () => {
  const postgres = useTestPostgres();

  /** Hosts A and B on one fresh database, running the test agent; `newChat` creates an agent chat through A. */
  async function twoHosts() {
    const databaseUrl = await postgres().createDatabase();
    const workspace = temp.make();
    const agents = agentsConfig(workspace, temp.make());
    const a = await hosts.startSynced({ databaseUrl, agents });
    const b = await hosts.startSynced({ databaseUrl, agents });
    const newChat = async () => ((await api(a.server.url, "/api/sessions", { json: { agent: "test", cwd: workspace } })).body as { session: { id: string } }).session.id;
    return { a, b, newChat };
  }

  it("[acp-cluster] passes a prompt on another host to the host that runs the chat's agent session, and a live host takes the chat over with session/load when that host is gone", async () => {
    const databaseUrl = await postgres().createDatabase();
    const workspace = temp.make();
    mkdirSync(path.join(workspace, "src"), { recursive: true });
    const agents = agentsConfig(workspace, temp.make());
    const a = await hosts.startSynced({ databaseUrl, agents });
    const b = await hosts.startSynced({ databaseUrl, agents });
    const created = await api(a.server.url, "/api/sessions", { json: { agent: "test", cwd: workspace } });
    expect(created.status).toBe(201);
    const sessionId = (created.body as { session: { id: string } }).session.id;
    const sessionRows = async () => {
      const rows = ((await api(b.server.url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
      return { rows, sessions: rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp] : [])) };
    };

    await say(a, [a, b], sessionId, "first on A");
    await say(b, [a, b], sessionId, "second on B");
    const passed = await sessionRows();
    // One agent session, opened by A: B passed its prompt there.
    expect(passed.sessions.map((data) => [typeof data.host, data.resumed ?? "new"])).toEqual([["string", "new"]]);

    await hosts.stop(a.server);
    await say(b, [b], sessionId, "/memory");
    const taken = await sessionRows();
    expect(taken.rows.filter((row) => row.role === "assistant").map((row) => row.text)).toEqual([
      "echo: first on A",
      "echo: second on B",
      'memory: ["first on A","second on B"]',
    ]);
    expect(taken.sessions.map((data) => data.resumed ?? "new")).toEqual(["new", "restored"]);
    expect(taken.sessions[1]!.host).not.toBe(taken.sessions[0]!.host);
  });

  it("[acp-cluster] a mode set through another host reaches the chat's agent session on the host that runs it", async () => {
    const { a, b, newChat } = await twoHosts();
    const sessionId = await newChat();
    await say(a, [a, b], sessionId, "hello");
    const set = await api(b.server.url, `/api/sessions/${sessionId}/mode`, { json: { mode: "auto" } });
    expect([set.status, set.body]).toEqual([202, { mode: "auto" }]);
    await say(b, [a, b], sessionId, "/permission edit");
    const rows = ((await api(b.server.url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
    expect(rows.filter((row) => row.role === "assistant").map((row) => row.text)).toEqual(["echo: hello", "auto: edit done without asking"]);
    expect(rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp.mode] : []))).toEqual(["auto"]);
  });

  it("[acp-cluster] a mode set while the hosts cannot reach each other goes to the chat's latest session, and the host that holds that session runs its next prompt in it", async () => {
    const databaseUrl = await postgres().createDatabase();
    const workspace = temp.make();
    const agents = agentsConfig(workspace, temp.make());
    // Each host advertises an address nobody listens on: a prompt or a mode is never passed on, each host runs it itself.
    const unreachable = "http://127.0.0.1:9";
    const a = await hosts.startSynced({ databaseUrl, agents, peerUrl: unreachable });
    const b = await hosts.startSynced({ databaseUrl, agents, peerUrl: unreachable });
    const sessionId = ((await api(a.server.url, "/api/sessions", { json: { agent: "test", cwd: workspace } })).body as { session: { id: string } }).session.id;
    await say(a, [a, b], sessionId, "first on A");
    // B cannot pass the prompt to A: it resumes the agent's session itself, and A's copy of it is now behind.
    await say(b, [a, b], sessionId, "second on B");
    const set = await api(a.server.url, `/api/sessions/${sessionId}/mode`, { json: { mode: "auto" } });
    expect([set.status, set.body]).toEqual([202, { mode: "auto" }]);
    const marks = [a.client.frames.length, b.client.frames.length];
    await say(b, [a, b], sessionId, "/permission edit");
    expect([a, b].flatMap((host, index) => host.client.frames.slice(marks[index]).filter((frame) => frame.type === "question/requested"))).toEqual([]);
    const rows = ((await api(b.server.url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
    expect(rows.filter((row) => row.role === "assistant").map((row) => row.text)).toEqual(["echo: first on A", "echo: second on B", "auto: edit done without asking"]);
    expect(rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [[row.tool.acp.resumed ?? "new", row.tool.acp.mode]] : []))).toEqual([
      ["new", "default"],
      ["restored", "auto"],
    ]);
  });

  it("[cluster-delete] a chat deleted through another host lets go of its agent session on the host that holds it: what the agent asks for it later is cancelled, never asked", async () => {
    const { a, b, newChat } = await twoHosts();
    const gone = await newChat();
    await say(a, [a, b], gone, "hello");
    const rows = ((await api(a.server.url, `/api/sessions/${gone}`)).body as { messages: Message[] }).messages;
    const acpSessionId = rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp.acpSessionId] : []))[0];
    expect(acpSessionId).toMatch(/^test-session-/);
    const mark = a.client.frames.length;
    expect((await api(b.server.url, `/api/sessions/${gone}`, { method: "DELETE" })).status).toBe(204);
    await a.client.waitFor((frame, index) => index >= mark && frame.type === "session/deleted" && frame.sessionId === gone);
    const other = await newChat();
    const marks = [a.client.frames.length, b.client.frames.length];
    await say(a, [a, b], other, `/permission-for ${acpSessionId}`);
    const otherRows = ((await api(a.server.url, `/api/sessions/${other}`)).body as { messages: Message[] }).messages;
    expect(otherRows.filter((row) => row.role === "assistant").map((row) => row.text)).toEqual([`permission for ${acpSessionId}: {"outcome":{"outcome":"cancelled"}}`]);
    expect([a, b].flatMap((host, index) => host.client.frames.slice(marks[index]).filter((frame) => frame.type === "question/requested"))).toEqual([]);
  });
});
