import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import pg from "pg";
import type { DownFrame, QuestionRequestedFrame, QuestionResolvedFrame, Session } from "../../protocol/schemas";
import { applyFrame } from "../../store/apply-frame";
import { initialSessionData } from "../../store/state";
import { createCleanup } from "../../testing/host/cleanup";
import { api, connect, createSession, startTestServer } from "../../testing/host/harness";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RunningServer, ServerOptions } from "../server";
import { testMcpConfig } from "../../testing/host/test-mcp-server";
import { NOTIFY_LIMIT_BYTES } from "./channel";
import { openPgStore, type PgStore } from "./store";

const cleanup = createCleanup();
afterEach(() => cleanup.closeAll());


const ask = (id: string) => `/ask ${JSON.stringify({ questions: [{ id, question: `Pick for ${id}?`, options: [{ label: "Yes" }, { label: "No" }] }] })}`;

describe.skipIf(postgresBinDir() === null)("hosts sharing one Postgres (in one process)", { timeout: 30_000 }, () => {
  const postgres = useTestPostgres();

  async function hosts(count: number, first: Partial<ServerOptions> = {}) {
    const databaseUrl = await postgres().createDatabase();
    const started = [];
    for (let index = 0; index < count; index++) started.push(await startTestServer({ databaseUrl, ...(index === 0 ? first : {}) }));
    cleanup.servers.push(...started);
    return started;
  }

  it("[elicitation-content] judges an answer on B to an elicitation asked on A by the requested schema: a failing one is refused there and nothing is sent", async () => {
    const [a, b] = await hosts(2, { mcpServers: testMcpConfig() });
    await expect.poll(() => a!.mcpTools.status()[0]?.state, { timeout: 20_000 }).toBe("ready");
    const watcher = await connect(b!.url);
    cleanup.sockets.push(watcher);
    const sessionId = await createSession(a!.url);
    const call = a!.mcpTools.call("mcp__notes__ask_string", {}, { sessionId, signal: new AbortController().signal });
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    const answer = (email: string) => ({
      type: "answer",
      rpcId: asked.rpcId,
      sessionId,
      answers: [{ id: "email", selected: [], custom: email }, ...["site", "born", "meet", "nick"].map((id) => ({ id, selected: [] }))],
    });
    const refused = await api(b!.url, "/api/respond", { json: answer("a..b@example.com") });
    expect([refused.body, watcher.frames.filter((frame) => frame.type === "question/resolved")]).toEqual([
      { accepted: false, reason: "bad-response", detail: `"email" must be an email address (letters, digits and !#$%&'*+/=?^_\`{|}~- before the @)` },
      [],
    ]);
    expect((await api(b!.url, "/api/respond", { json: answer("a.b@example.com") })).body).toEqual({ accepted: true });
    const [first] = (await call).content as { text: string }[];
    expect(JSON.parse(first!.text)).toEqual({ action: "accept", content: { email: "a.b@example.com" } });
  });

  it("[cluster-turns] shows a host that starts while another host's turn runs that session running, and the session idle once it ends", async () => {
    const databaseUrl = await postgres().createDatabase();
    const a = await startTestServer({ databaseUrl, mcpServers: testMcpConfig() });
    cleanup.servers.push(a);
    await expect.poll(() => a.mcpTools.status()[0]?.state, { timeout: 20_000 }).toBe("ready");
    const watcher = await connect(a.url);
    cleanup.sockets.push(watcher);
    const sessionId = await createSession(a.url);
    await api(a.url, `/api/sessions/${sessionId}/messages`, { json: { text: '/tool mcp__notes__slow {"ms":60000}' } });
    await watcher.waitFor((frame) => frame.type === "message/upserted" && frame.message.role === "tool" && frame.message.tool?.status === "running");
    const b = await startTestServer({ databaseUrl });
    cleanup.servers.push(b);
    const stateOn = async (url: string) => ((await api(url, `/api/sessions/${sessionId}`)).body as { session: { state: string } }).session.state;
    expect([await stateOn(a.url), await stateOn(b.url)]).toEqual(["running", "running"]);
    const from = watcher.frames.length;
    expect((await api(b.url, `/api/sessions/${sessionId}/abort`, { method: "POST" })).body).toEqual({ aborted: true });
    await watcher.waitIdle(sessionId, from);
    await expect.poll(() => stateOn(b.url)).toBe("idle");
  });

  it("[mcp-cluster] carries an MCP session opened on A through B: its calls run on A, are answered through B, and end with A", async () => {
    const [a, b] = await hosts(2);
    const watcher = await connect(b!.url);
    cleanup.sockets.push(watcher);
    const opened = new Client({ name: "cluster-agent", version: "1.0.0" });
    const first = new StreamableHTTPClientTransport(new URL("/mcp", a!.url));
    await opened.connect(first);
    const sessionId = first.sessionId!;
    const resumed = new Client({ name: "cluster-agent", version: "1.0.0" });
    await resumed.connect(new StreamableHTTPClientTransport(new URL("/mcp", b!.url), { sessionId }));
    cleanup.clients.push(opened, resumed);
    const listed = await resumed.listTools();
    const call = resumed.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "via", question: "Through B?", options: [{ label: "Yes" }, { label: "No" }] }] } });
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    expect([sessionId.split(".").length, listed.tools.map((tool) => tool.name), asked.origin]).toEqual([2, ["ask_user_question", "present_plan"], { kind: "mcp-client", name: "cluster-agent" }]);
    expect((await api(b!.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId: asked.sessionId, answers: [{ id: "via", selected: ["Yes"] }] } })).body).toEqual({ accepted: true });
    expect(((await call).content as { text: string }[])[0]!.text).toBe(`{"answers":[{"id":"via","selected":["Yes"]}]}`);
    // A request whose body the holder does not read (a DELETE with one) leaves the connection between the hosts usable.
    const spare = new StreamableHTTPClientTransport(new URL("/mcp", a!.url));
    const spareClient = new Client({ name: "spare", version: "1.0.0" });
    await spareClient.connect(spare);
    cleanup.clients.push(spareClient);
    const deleted = await fetch(`${b!.url}/mcp`, { method: "DELETE", headers: { "mcp-session-id": spare.sessionId!, "content-type": "application/json" }, body: '{"padding":"' + "x".repeat(200) + '"}' });
    expect([deleted.status, (await resumed.listTools()).tools.length]).toEqual([200, 2]);
    await a!.close();
    await expect(resumed.listTools()).rejects.toThrow("Session not found");
  });

  it("[cluster-health] gives every host the cluster's id and counts the live ones in health", async () => {
    const [a, b] = await hosts(2);
    const health = [(await api(a!.url, "/api/health")).body, (await api(b!.url, "/api/health")).body] as { hostId: string; cluster: { id: string; instances: number; instance: string } }[];
    const socket = await connect(b!.url);
    cleanup.sockets.push(socket);
    const hello = await socket.waitFor((frame) => frame.type === "hello");
    expect([a!.hostId === b!.hostId, health[0]!.hostId, health[1]!.cluster.id, hello]).toEqual([
      true,
      a!.hostId,
      a!.hostId,
      { type: "hello", protocol: 2, hostId: a!.hostId, heartbeatMs: expect.any(Number) as number },
    ]);
    expect(health[0]!.cluster.instance).not.toBe(health[1]!.cluster.instance);
  });

  it("[cluster-respond] answers on B a question asked on A: exactly one of racing responses wins, the turn on A settles once, every host's sockets see it", async () => {
    const [a, b, c] = await hosts(3);
    const sockets = await Promise.all([a!, b!, c!].map((host) => connect(host.url)));
    cleanup.sockets.push(...sockets);
    const sessionId = await createSession(a!.url);
    await api(a!.url, `/api/sessions/${sessionId}/messages`, { json: { text: ask("race") } });
    const asked = await Promise.all(sockets.map((socket) => socket.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested")));
    const body = (label: string) => ({ type: "answer", rpcId: asked[0]!.rpcId, sessionId, answers: [{ id: "race", selected: [label] }] });
    const receipts = await Promise.all([b!, c!, b!, a!].map((host, index) => api(host.url, "/api/respond", { json: body(index % 2 === 0 ? "Yes" : "No") })));
    const accepted = receipts.filter((receipt) => (receipt.body as { accepted: boolean }).accepted);
    expect([accepted.length, receipts.map((receipt) => receipt.status)]).toEqual([1, [200, 200, 200, 200]]);
    const resolved = await Promise.all(sockets.map((socket) => socket.waitFor<QuestionResolvedFrame>((frame) => frame.type === "question/resolved")));
    expect(resolved.map((frame) => frame.outcome)).toEqual(["answered", "answered", "answered"]);
    await Promise.all(sockets.map((socket, index) => socket.waitIdle(sessionId, socket.frames.indexOf(resolved[index]!))));
    const transcript = (await api(c!.url, `/api/sessions/${sessionId}`)).body as { messages: { role: string; tool?: { status: string } }[] };
    expect(transcript.messages.filter((message) => message.role === "tool").map((message) => message.tool?.status)).toEqual(["ok"]);
    for (const socket of sockets) expect(socket.frames.filter((frame) => frame.type === "question/resolved")).toHaveLength(1);
  });

  it("[cluster-turns] starts one turn per session cluster-wide: of messages posted at once through two hosts, one is taken and the other gets 409", async () => {
    const [a, b] = await hosts(2);
    const sessionId = await createSession(a!.url);
    const posted = await Promise.all([a!, b!].map((host) => api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: ask("turn") } })));
    expect(posted.map((result) => result.status).sort()).toEqual([202, 409]);
    const socket = await connect(b!.url);
    cleanup.sockets.push(socket);
    const asked = await socket.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    expect((await api(b!.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "turn", selected: ["No"] }] } })).body).toEqual({ accepted: true });
    await socket.waitIdle(sessionId, socket.frames.indexOf(asked));
    const next = posted[0]!.status === 202 ? b! : a!;
    expect((await api(next.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo after" } })).status).toBe(202);
  });

  it("[session-revision] ends every tab on the chat's stored row when one host's frame of an older write goes out after another host's newer one", async () => {
    const databaseUrl = await postgres().createDatabase();
    const a = await startTestServer({ databaseUrl });
    const b = await startTestServer({ databaseUrl });
    cleanup.servers.push(a, b);
    const sessionId = await createSession(a.url);
    const tabs = await Promise.all([connect(a.url), connect(b.url)]);
    cleanup.sockets.push(...tabs);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      // A's frame of an idle chat first deletes A's turn row of it: holding that row holds A's frame after its write.
      // A started, and so registered, first (both hosts of this process have the same address).
      const { rows } = await db.query<{ instance: string }>("SELECT instance FROM hosts ORDER BY started_at");
      expect(rows.length).toBe(2);
      await db.query("INSERT INTO turns (session_id, owner) VALUES ($1, $2)", [sessionId, rows[0]!.instance]);
      await db.query("BEGIN");
      await db.query("SELECT 1 FROM turns WHERE session_id = $1 FOR UPDATE", [sessionId]);
      const rename = (host: RunningServer, title: string) => api(host.url, `/api/sessions/${sessionId}`, { method: "PATCH", json: { title } });
      // In a cluster a response waits for its host's frames: A's answers once its frame is out.
      const renamingThroughA = rename(a, "Older, through A");
      await expect.poll(async () => (await db.query<{ title: string }>("SELECT title FROM sessions WHERE id = $1", [sessionId])).rows[0]?.title, { timeout: 10_000 }).toBe("Older, through A");
      expect((await rename(b, "Newer, through B")).status).toBe(200);
      const titled = (title: string) => (frame: DownFrame) => frame.type === "session/upserted" && frame.session.title === title;
      for (const tab of tabs) await tab.waitFor(titled("Newer, through B"), "B's rename");
      await db.query("COMMIT");
      expect((await renamingThroughA).status).toBe(200);
      for (const tab of tabs) await tab.waitFor(titled("Older, through A"), "A's rename, late");
    } finally {
      await db.query("ROLLBACK").catch(() => undefined);
      await db.end();
    }
    const stored = (await api(a.url, `/api/sessions/${sessionId}`)).body as { session: Session };
    expect([stored.session.title, stored.session.revision]).toEqual(["Newer, through B", 2]);
    for (const tab of tabs) {
      const shown = tab.frames.reduce((state, frame) => applyFrame(state, frame), initialSessionData).sessions.find((session) => session.id === sessionId);
      expect(shown).toEqual(stored.session);
    }
  });

  it("[cluster-turns] keeps a turn's row while the turn starts, whatever idle frames of the session go out meanwhile: another host still gets 409", async () => {
    const databaseUrl = await postgres().createDatabase();
    // A's store takes its time to write the user's message, so a rename lands between the row's claim and the turn's start.
    const store = await openPgStore({ url: databaseUrl, instance: randomUUID() });
    const slow: PgStore = { ...store, insertMessage: async (message) => (await new Promise((resolve) => setTimeout(resolve, 300)), store.insertMessage(message)) };
    const a = await startTestServer({ store: slow });
    const b = await startTestServer({ databaseUrl });
    cleanup.servers.push(a, b);
    const watcher = await connect(a.url);
    cleanup.sockets.push(watcher);
    const sessionId = await createSession(a.url);
    const posting = api(a.url, `/api/sessions/${sessionId}/messages`, { json: { text: ask("kept") } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await api(a.url, `/api/sessions/${sessionId}`, { method: "PATCH", json: { title: "Renamed" } })).status).toBe(200);
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    const other = await api(b.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo second" } });
    expect([(await posting).status, other.status]).toEqual([202, 409]);
    expect((await api(b.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "kept", selected: ["Yes"] }] } })).body).toEqual({ accepted: true });
    await watcher.waitIdle(sessionId, watcher.frames.indexOf(asked));
    // No host holds the session's row now: the next message is taken on A as well.
    expect((await api(a.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo after" } })).status).toBe(202);
  });

  it("[cluster-stop] stops through B a turn waiting on A: its question resolves aborted everywhere and the session goes idle", async () => {
    const [a, b] = await hosts(2);
    const watcher = await connect(b!.url);
    cleanup.sockets.push(watcher);
    const sessionId = await createSession(a!.url);
    await api(a!.url, `/api/sessions/${sessionId}/messages`, { json: { text: ask("stop") } });
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    await watcher.waitFor((frame) => frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.state === "waiting");
    const stopped = await api(b!.url, `/api/sessions/${sessionId}/abort`, { json: {} });
    const resolved = await watcher.waitFor<QuestionResolvedFrame>((frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId);
    const from = watcher.frames.indexOf(resolved);
    await watcher.waitIdle(sessionId, from);
    expect([stopped.status, stopped.body, resolved.outcome]).toEqual([202, { aborted: true }, "aborted"]);
  });

  it("[cluster-delete] deletes through B a chat whose turn waits on A: A stops it, its question resolves aborted everywhere, and nothing of it follows or is replayed", async () => {
    const [a, b] = await hosts(2);
    const watcher = await connect(b!.url);
    cleanup.sockets.push(watcher);
    const sessionId = await createSession(a!.url);
    await api(a!.url, `/api/sessions/${sessionId}/messages`, { json: { text: ask("gone") } });
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    await watcher.waitFor((frame) => frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.state === "waiting");
    const from = watcher.frames.length;
    expect((await api(b!.url, `/api/sessions/${sessionId}`, { method: "DELETE" })).status).toBe(204);
    await watcher.waitFor((frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId);
    // A frame of a chat made after it marks the end of what the delete caused.
    const next = await createSession(a!.url);
    await watcher.waitFor((frame) => frame.type === "session/upserted" && frame.session.id === next);
    const after = watcher.frames.slice(from).filter((frame) => !(frame.type === "session/upserted" && frame.session.id === next));
    expect(after).toEqual([
      { type: "session/deleted", sessionId },
      { type: "question/resolved", rpcId: asked.rpcId, sessionId, outcome: "aborted" },
    ]);
    const fresh = await connect(a!.url);
    cleanup.sockets.push(fresh);
    await fresh.waitFor((frame) => frame.type === "synced");
    expect(fresh.frames.map((frame) => frame.type)).toEqual(["hello", "synced"]);
  });

  it("[cluster-lease] a host that lost its database closes its sockets, refuses new ones and answers 503 until it is back", { timeout: 60_000 }, async () => {
    const [a] = await hosts(1);
    const sessionId = await createSession(a!.url);
    await api(a!.url, `/api/sessions/${sessionId}/messages`, { json: { text: ask("lost") } });
    const socket = await connect(a!.url);
    cleanup.sockets.push(socket);
    const asked = await socket.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    await postgres().stopServer();
    try {
      const respond = await api(a!.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "lost", selected: ["Yes"] }] } });
      const closed = await socket.closed;
      await expect(connect(a!.url)).rejects.toThrow("upgrade refused with 503");
      const health = await api(a!.url, "/api/health");
      expect([respond.status, (respond.body as { error: { code: string } }).error.code, closed.code, health.status, (health.body as { cluster: { state: string } }).cluster.state]).toEqual([503, "STORAGE_BUSY", 1012, 503, "disconnected"]);
    } finally {
      await postgres().startServer();
    }
    await waitHealthy(a!.url);
    const again = await connect(a!.url);
    cleanup.sockets.push(again);
    await again.waitFor((frame) => frame.type === "question/requested" && frame.rpcId === asked.rpcId);
  });

  it("[cluster-lease] after the database comes back, a question asked while it was down reaches every host and is answered through another", { timeout: 60_000 }, async () => {
    const [a, b] = await hosts(2);
    const sessionId = await createSession(a!.url);
    await postgres().stopServer();
    const answered = a!.userInteraction.ask({ questions: [{ id: "outage", question: "Still there?", options: [{ label: "Yes" }, { label: "No" }] }], sessionId });
    await postgres().startServer();
    for (const host of [a!, b!]) await waitHealthy(host.url);
    const socket = await connect(b!.url);
    cleanup.sockets.push(socket);
    const asked = await socket.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId);
    const receipt = await api(b!.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "outage", selected: ["Yes"] }] } });
    expect([receipt.body, await answered]).toEqual([{ accepted: true }, { answers: [{ id: "outage", selected: ["Yes"] }] }]);
  });

  it("[cluster-fanout] replays every pending question of the cluster on a socket opening on any host, then synced", async () => {
    const [a, b] = await hosts(2);
    const watcher = await connect(a!.url);
    cleanup.sockets.push(watcher);
    const first = await createSession(a!.url);
    const second = await createSession(b!.url);
    await api(a!.url, `/api/sessions/${first}/messages`, { json: { text: ask("one") } });
    await watcher.waitFor((frame) => frame.type === "question/requested" && frame.sessionId === first);
    await api(b!.url, `/api/sessions/${second}/messages`, { json: { text: ask("two") } });
    await watcher.waitFor((frame) => frame.type === "question/requested" && frame.sessionId === second);
    const fresh = await connect(b!.url);
    cleanup.sockets.push(fresh);
    await fresh.waitFor((frame) => frame.type === "synced");
    expect(fresh.frames.map((frame) => (frame.type === "question/requested" ? [frame.type, frame.sessionId] : [frame.type]))).toEqual([["hello"], ["question/requested", first], ["question/requested", second], ["synced"]]);
  });

  it("keeps a browser logged in on every host: the login cookie is the cluster's, not a port's", async () => {
    const databaseUrl = await postgres().createDatabase();
    const token = "a-cluster-token-long-enough";
    const a = await startTestServer({ databaseUrl, token });
    const b = await startTestServer({ databaseUrl, token });
    cleanup.servers.push(a, b);
    const link = await api(a.url, `/?token=${token}`);
    const cookie = (link.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect([link.status, cookie.startsWith(`parley_login_${a.hostId.slice(0, 8)}=`)]).toEqual([302, true]);
    expect([(await api(b.url, "/api/sessions", { headers: { cookie } })).status, (await api(b.url, "/api/sessions")).status]).toEqual([200, 401]);
  });

  it("[cluster-respond] hands an answer given on B to the question's owner A, intact whether or not it fits a notification", async () => {
    const [a, b] = await hosts(2);
    const socket = await connect(b!.url);
    cleanup.sockets.push(socket);
    const sessionId = await createSession(a!.url);
    const long = "a long reason given ".repeat(Math.ceil((NOTIFY_LIMIT_BYTES * 2) / 20));
    for (const custom of ["a short reason", long]) {
      const question = `Why (${custom.length} characters)?`;
      const answered = a!.userInteraction.ask({ questions: [{ id: "why", question, options: [{ label: "Because" }] }], sessionId });
      const asked = await socket.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.questions[0]?.question === question);
      const receipt = await api(b!.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "why", selected: [], custom }] } });
      expect([receipt.body, await answered]).toEqual([{ accepted: true }, { answers: [{ id: "why", selected: [], custom }] }]);
    }
  });

  it("[cluster-fanout] carries a frame larger than a notification intact", async () => {
    const [a, b] = await hosts(2);
    const socket = await connect(b!.url);
    cleanup.sockets.push(socket);
    const sessionId = await createSession(a!.url);
    const text = `/echo ${"a long line of words ".repeat(Math.ceil((NOTIFY_LIMIT_BYTES * 2) / 21))}`;
    await api(a!.url, `/api/sessions/${sessionId}/messages`, { json: { text } });
    const upserted = await socket.waitFor((frame) => frame.type === "message/upserted" && frame.message.role === "user");
    expect(upserted.type === "message/upserted" && upserted.message.text).toBe(text);
  });
});

async function waitHealthy(url: string) {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const health = await api(url, "/api/health").catch(() => null);
    if (health?.status === 200) return;
    if (performance.now() > deadline) throw new Error(`${url} did not become healthy: ${JSON.stringify(health?.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
