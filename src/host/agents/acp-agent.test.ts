import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { choiceAnswer } from "../../protocol/approval";
import type { DownFrame, Message } from "../../protocol/schemas";
import type { AgentsConfig } from "../acp/config";
import { modesOf } from "./acp-agent";
import { openStore } from "../store";
import { TEST_AGENT_ARGS } from "../../testing/acp/test-agent";
import { api, createTestHosts, type FrameClient } from "../../testing/host/harness";
import { createTempDirs } from "../../testing/host/temp-dirs";

const hosts = createTestHosts();
const temp = createTempDirs("parley-acp-agent-");
const tempDir = () => temp.make();
afterEach(async () => {
  await hosts.closeAll();
  temp.removeAll();
});

type Requested = Extract<DownFrame, { type: "question/requested" }>;

function agentsConfig(workspace: string, env: Record<string, string> = {}): AgentsConfig {
  return { file: null, workspaces: [workspace], agents: [{ name: "test", title: "Test Agent", command: process.execPath, args: TEST_AGENT_ARGS, env, disabled: false }] };
}

async function startWithAgent(env: Record<string, string> = {}, dataDir = ":memory:") {
  const workspace = tempDir();
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace, env), dataDir });
  return { server, client, workspace };
}

async function newAgentChat(url: string, workspace: string): Promise<string> {
  const created = await api(url, "/api/sessions", { json: { agent: "test", cwd: workspace } });
  expect(created.status).toBe(201);
  return (created.body as { session: { id: string } }).session.id;
}

async function say(url: string, client: FrameClient, sessionId: string, text: string) {
  const from = client.frames.length;
  const posted = await api(url, `/api/sessions/${sessionId}/messages`, { json: { text } });
  expect(posted.status).toBe(202);
  return from;
}

async function messages(url: string, sessionId: string): Promise<Message[]> {
  return ((await api(url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
}

const replies = (rows: Message[]) => rows.filter((row) => row.role === "assistant").map((row) => row.text);

/** A chat told "remember me" on a host whose agent keeps its sessions on disk and whose data outlives it. */
async function rememberedChat() {
  const stateDir = tempDir();
  const dataDir = tempDir();
  const first = await startWithAgent({ TEST_AGENT_STATE_DIR: stateDir }, dataDir);
  const sessionId = await newAgentChat(first.server.url, first.workspace);
  await first.client.waitTurnEnd(sessionId, await say(first.server.url, first.client, sessionId, "remember me"));
  return { stateDir, dataDir, first, sessionId };
}

describe("ACP agent chats (acp-agents)", () => {
  it("lists the configured agent as ready once it answered initialize, and refuses a folder outside the workspaces with 400 naming the rule", async () => {
    const { server, workspace } = await startWithAgent();
    await expect.poll(async () => ((await api(server.url, "/api/agents")).body as { agents: { state: string }[] }).agents[0]?.state, { timeout: 30_000 }).toBe("ready");
    const listed = (await api(server.url, "/api/agents")).body as { agents: unknown[]; workspaces: string[] };
    expect(listed.agents).toEqual([{ name: "test", title: "Test Agent", state: "ready", loadSession: true }]);
    expect(listed.workspaces).toHaveLength(1);
    const outside = await api(server.url, "/api/sessions", { json: { agent: "test", cwd: path.dirname(workspace) } });
    expect(outside.status).toBe(400);
    expect((outside.body as { error: { message: string } }).error.message).toContain("outside the workspaces");
    const unknown = await api(server.url, "/api/sessions", { json: { agent: "nobody" } });
    expect(unknown.status).toBe(400);
    const created = await api(server.url, "/api/sessions", { json: { agent: "test", cwd: workspace } });
    expect((created.body as { session: { agent: unknown } }).session.agent).toEqual({ kind: "acp-agent", name: "test", cwd: listed.workspaces[0] });
  });

  it("stores every update as rows: the reply, a thought, the plan, tool calls with their diff and ANSI output, and the session row with modes and commands", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/stream");
    await client.waitTurnEnd(sessionId, from);
    const rows = await messages(server.url, sessionId);
    const acp = rows.flatMap((row) => (row.tool?.acp ? [row.tool.acp] : []));
    const session = acp.find((data) => data.type === "session");
    expect(session).toMatchObject({ type: "session", agent: "test", title: "Test Agent", state: "ready", mode: "default" });
    expect(session?.type === "session" && session.modes?.map((mode) => mode.id)).toEqual(["default", "auto"]);
    expect(session?.type === "session" && session.commands).toEqual([
      { name: "init", description: "Write an AGENTS.md" },
      { name: "review", description: "Review the changes", hint: "what to review" },
      { name: "ship", description: "Ship it now", hint: "where" },
    ]);
    expect(acp.find((data) => data.type === "thought")).toEqual({ type: "thought", text: "Thinking about the tests…" });
    expect(acp.find((data) => data.type === "plan")).toMatchObject({ type: "plan", entries: [{ content: "Read the failing test", status: "completed" }, { content: "Fix the bug", status: "in_progress" }] });
    const tools = rows.filter((row) => row.tool?.acp?.type === "tool");
    expect(tools.map((row) => [row.tool!.acp!.type === "tool" && row.tool!.acp!.call.title, row.tool!.status])).toEqual([
      ["Edit src/b.ts", "ok"],
      ["npm test", "error"],
    ]);
    const edit = tools[0]!.tool!.acp!;
    expect(edit.type === "tool" && edit.call.content?.[0]).toMatchObject({ type: "diff", oldText: "export const b = 1;\n", newText: "export const b = 2;\n" });
    const run = tools[1]!.tool!.acp!;
    expect(run.type === "tool" && run.call.content?.[0]).toMatchObject({ type: "text" });
    expect(run.type === "tool" && run.call.content?.[0]?.type === "text" && run.call.content[0].text).toContain("\u001b[32m");
    expect(replies(rows)).toContain("Here is **the** plan.\n\n");
    // In the order the agent spoke, stored and as first shown to the tabs: a streamed reply never overtakes a row before it.
    const label = (row: Message) => (row.role !== "tool" ? `${row.role}: ${row.text ?? ""}` : row.tool?.acp?.type === "tool" ? `tool: ${row.tool.acp.call.title}` : `${row.tool?.acp?.type}`);
    const spoken = ["user: /stream", "session", "thought", "plan", "assistant: Here is **the** plan.\n\n", "tool: Edit src/b.ts", "tool: npm test", "assistant: done"];
    expect(rows.map(label)).toEqual(spoken);
    const shown = client.frames.slice(from).flatMap((frame) => (frame.type === "message/upserted" && frame.message.sessionId === sessionId ? [frame.message] : []));
    const firstShown = [...new Map(shown.map((row) => [row.id, row] as const)).values()];
    expect(firstShown.map((row) => rows.findIndex((stored) => stored.id === row.id))).toEqual(rows.map((_, index) => index).filter((index) => firstShown.some((row) => row.id === rows[index]!.id)));
    // A tab is never sent a piece of a reply before the reply's row: its text streams onto what it was shown.
    const seen = new Set<string>();
    const early: string[] = [];
    for (const frame of client.frames.slice(from)) {
      if (frame.type === "message/upserted") seen.add(frame.message.id);
      if (frame.type === "message/delta" && !seen.has(frame.messageId)) early.push(frame.text);
    }
    expect(early).toEqual([]);
  });

  it("titles the chat from the agent's session_info_update while the human has not renamed it, and keeps a rename", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    const title = async () => ((await api(server.url, `/api/sessions/${sessionId}`)).body as { session: { title: string } }).session.title;
    let from = await say(server.url, client, sessionId, "Fix the flaky login test");
    await client.waitTurnEnd(sessionId, from);
    expect(await title()).toBe("Fix the flaky login test");
    from = await say(server.url, client, sessionId, "/title  Login test:\u200f flake fixed ");
    await client.waitFor((frame, index) => index > from && frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.title === "Login test: flake fixed");
    await client.waitTurnEnd(sessionId, from);
    expect(await title()).toBe("Login test: flake fixed");
    expect((await api(server.url, `/api/sessions/${sessionId}`, { method: "PATCH", json: { title: "Mine" } })).status).toBe(200);
    from = await say(server.url, client, sessionId, "/title The agent's name");
    await client.waitTurnEnd(sessionId, from);
    expect(replies(await messages(server.url, sessionId))).toContain("titled");
    expect(await title()).toBe("Mine");
  });

  it("asks a permission as an approval with the agent's options by name in kind order, and the option picked by its label reaches the agent", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/permission edit");
    const asked = await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    expect(asked.origin).toEqual({ kind: "acp-agent", name: "test", title: "Test Agent" });
    expect(asked.approval?.choices).toEqual(["Allow", "Always allow", "Reject", "Never allow"]);
    expect(asked.approval?.toolCall).toMatchObject({ title: "Edit src/app.ts", kind: "edit", content: [{ type: "diff" }] });
    const answered = await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: choiceAnswer("Allow") } });
    expect(answered.status).toBe(200);
    await client.waitTurnEnd(sessionId, from);
    expect(replies(await messages(server.url, sessionId))).toContain('permission: {"outcome":{"outcome":"selected","optionId":"proceed_once"}}');
  });

  it("shows a permission request that names its call by id only with the call as the turn showed it: its title, diff and raw input", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/permission partial");
    const asked = await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    const file = path.join(realpathSync(workspace), "src", "app.ts");
    expect(asked.approval?.tool).toBe("Edit src/app.ts");
    expect(JSON.parse(asked.approval!.arguments)).toEqual({ file_path: file, old_string: "const b = 2;", new_string: "const b = 3;" });
    expect(asked.approval?.toolCall).toEqual({
      toolCallId: expect.any(String),
      title: "Edit src/app.ts",
      kind: "edit",
      locations: [{ path: file, line: 2 }],
      content: [{ type: "diff", path: file, oldText: "const a = 1;\nconst b = 2;\n", newText: "const a = 1;\nconst b = 3;\n" }],
    });
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: choiceAnswer("Reject") } });
    await client.waitTurnEnd(sessionId, from);
  });

  it("answers a permission request that offers no option cancelled at once: no card the human could not answer", async () => {
    const logs: { event: string }[] = [];
    const workspace = tempDir();
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace), log: (entry) => void logs.push(entry) });
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/permission-none");
    await client.waitTurnEnd(sessionId, from);
    expect(client.frames.slice(from).filter((frame) => frame.type === "question/requested")).toEqual([]);
    expect(replies(await messages(server.url, sessionId)).at(-1)).toBe('permission: {"outcome":{"outcome":"cancelled"}}');
    expect(logs.filter((entry) => entry.event === "acp/permission-without-options")).toEqual([{ event: "acp/permission-without-options", sessionId }]);
  });

  it("a tool call that fails once its turn was stopped is stored stopped, so every tab reads the turn as stopped", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/permission execute");
    await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    expect((await api(server.url, `/api/sessions/${sessionId}/abort`, { json: {} })).status).toBe(202);
    await client.waitTurnEnd(sessionId, from);
    const calls = (await messages(server.url, sessionId)).filter((row) => row.tool?.acp?.type === "tool");
    expect(calls.map((row) => [row.tool?.status, row.tool?.acp?.type === "tool" ? row.tool.acp.status : null])).toEqual([["stopped", "failed"]]);
    expect(replies(await messages(server.url, sessionId))).toContain('permission: {"outcome":{"outcome":"cancelled"}}');
  });

  it("sends a deny reason in _meta and, once the turn ended, as the next prompt shown as the user's message", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/permission execute");
    const asked = await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: choiceAnswer("Reject", "run the unit tests only") } });
    await client.waitFor((frame, index) => index > from && frame.type === "message/upserted" && frame.message.text === "echo: run the unit tests only");
    await client.waitIdle(sessionId, client.frames.length - 1);
    const rows = await messages(server.url, sessionId);
    expect(rows.filter((row) => row.role === "user").map((row) => row.text)).toEqual(["/permission execute", "run the unit tests only"]);
    expect(replies(rows)).toContain('permission: {"outcome":{"outcome":"selected","optionId":"cancel"},"_meta":{"parley":{"reason":"run the unit tests only"}}}');
  });

  it("a deleted chat's agent session is let go: a request the agent makes for it later is answered cancelled, never asked on a chat that is gone", async () => {
    const { server, client, workspace } = await startWithAgent();
    const gone = await newAgentChat(server.url, workspace);
    await client.waitTurnEnd(gone, await say(server.url, client, gone, "hello"));
    const acpSessionId = (await messages(server.url, gone)).flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp.acpSessionId] : []))[0];
    expect(acpSessionId).toMatch(/^test-session-/);
    expect((await api(server.url, `/api/sessions/${gone}`, { method: "DELETE" })).status).toBe(204);
    const other = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, other, `/permission-for ${acpSessionId}`);
    await client.waitTurnEnd(other, from);
    expect(replies(await messages(server.url, other)).at(-1)).toBe(`permission for ${acpSessionId}: {"outcome":{"outcome":"cancelled"}}`);
    expect(client.frames.slice(from).filter((frame) => frame.type === "question/requested")).toEqual([]);
  });

  it("a chat deleted while its agent is still opening its session lets that session go once it opens: a request for it is answered cancelled", async () => {
    const workspace = tempDir();
    const gate = path.join(tempDir(), "open");
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace, { TEST_AGENT_SESSION_GATE: gate }), agentCancelGraceMs: 300 });
    const gone = await newAgentChat(server.url, workspace);
    const said = await say(server.url, client, gone, "hello");
    await client.waitFor((frame, index) => index >= said && frame.type === "message/upserted" && frame.message.sessionId === gone && frame.message.tool?.acp?.type === "session");
    expect((await api(server.url, `/api/sessions/${gone}`, { method: "DELETE" })).status).toBe(204);
    writeFileSync(gate, "");
    const other = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, other, "/permission-for test-session-1");
    await client.waitTurnEnd(other, from);
    const rows = await messages(server.url, other);
    expect(rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp.acpSessionId] : []))).toEqual(["test-session-2"]);
    expect(replies(rows).at(-1)).toBe('permission for test-session-1: {"outcome":{"outcome":"cancelled"}}');
    expect(client.frames.slice(from).filter((frame) => frame.type === "question/requested")).toEqual([]);
  });

  it("Stop ends the turn though the agent ignores session/cancel: after the grace the chat lets go of the session, and the next prompt resumes it", async () => {
    const stateDir = tempDir();
    const workspace = tempDir();
    const logs: { event: string }[] = [];
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace, { TEST_AGENT_STATE_DIR: stateDir }), agentCancelGraceMs: 300, log: (entry) => void logs.push(entry) });
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/ignore-cancel");
    // The agent has the prompt: its first words are in (with its reply's row, or streamed onto it).
    await client.waitFor((frame, index) => index >= from && ((frame.type === "message/upserted" && frame.message.sessionId === sessionId && frame.message.role === "assistant" && frame.message.text !== "") || (frame.type === "message/delta" && frame.sessionId === sessionId)));
    expect((await api(server.url, `/api/sessions/${sessionId}/abort`, { method: "POST" })).status).toBe(202);
    await client.waitTurnEnd(sessionId, from);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    const rows = await messages(server.url, sessionId);
    expect(logs.filter((entry) => entry.event === "acp/cancel-ignored")).toEqual([{ event: "acp/cancel-ignored", sessionId, graceMs: 300 }]);
    expect(rows.filter((row) => row.failure)).toEqual([]);
    expect(rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp.resumed ?? "new"] : []))).toEqual(["new", "restored"]);
    expect(replies(rows)).toEqual(["working", 'memory: ["/ignore-cancel"]']);
  });

  it("a stopped prompt that ends after the chat opened the session again leaves the next turn's permission request open", async () => {
    const stateDir = tempDir();
    const workspace = tempDir();
    mkdirSync(path.join(workspace, "src"), { recursive: true });
    const logs: { event: string }[] = [];
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace, { TEST_AGENT_STATE_DIR: stateDir }), agentCancelGraceMs: 300, log: (entry) => void logs.push(entry) });
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/linger");
    await client.waitFor((frame, index) => index >= from && ((frame.type === "message/upserted" && frame.message.sessionId === sessionId && frame.message.text === "working") || (frame.type === "message/delta" && frame.sessionId === sessionId)));
    expect((await api(server.url, `/api/sessions/${sessionId}/abort`, { method: "POST" })).status).toBe(202);
    await client.waitTurnEnd(sessionId, from);

    const next = await say(server.url, client, sessionId, "/permission edit");
    const asked = await client.waitFor<Requested>((frame, index) => index >= next && frame.type === "question/requested");
    // The lingering prompt ends once that request is on its way.
    await expect.poll(() => logs.filter((entry) => entry.event === "acp/prompt-ended-late").length, { timeout: 30_000 }).toBe(1);
    const answered = await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: choiceAnswer("Allow") } });
    expect([answered.status, answered.body]).toEqual([200, { accepted: true }]);
    await client.waitTurnEnd(sessionId, next);
    expect(client.frames.slice(next).filter((frame) => frame.type === "question/resolved")).toEqual([{ type: "question/resolved", rpcId: asked.rpcId, sessionId, outcome: "answered" }]);
    expect(replies(await messages(server.url, sessionId)).at(-1)).toBe('permission: {"outcome":{"outcome":"selected","optionId":"proceed_once"}}');
  });

  it("Stop ends a turn whose agent never opens the chat's session, once the grace is over", async () => {
    const workspace = tempDir();
    const logs: { event: string }[] = [];
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace, { TEST_AGENT_NO_SESSION: "1" }), agentCancelGraceMs: 300, log: (entry) => void logs.push(entry) });
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "hello");
    // The chat's session row says it is starting: the agent got session/new and will never answer it.
    await client.waitFor((frame, index) => index >= from && frame.type === "message/upserted" && frame.message.tool?.acp?.type === "session" && frame.message.tool.acp.state === "starting");
    expect((await api(server.url, `/api/sessions/${sessionId}/abort`, { method: "POST" })).status).toBe(202);
    await client.waitTurnEnd(sessionId, from);
    expect(logs.filter((entry) => entry.event === "acp/cancel-ignored")).toEqual([{ event: "acp/cancel-ignored", sessionId, graceMs: 300 }]);
  });

  it("a tool call the agent left running when its turn ended is stopped: the row does not run for ever", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/unfinished"));
    const rows = await messages(server.url, sessionId);
    const call = rows.find((row) => row.tool?.acp?.type === "tool");
    expect([call?.tool?.status, call?.tool?.acp]).toEqual(["stopped", { type: "tool", status: "in_progress", call: { toolCallId: "left-1", title: "Watch the files", kind: "execute" } }]);
    expect(replies(rows).at(-1)).toBe("left it running");
  });

  it("Stop while a deny reason's row is being written ends the turn there: the reason is never sent to the agent", async () => {
    const workspace = tempDir();
    mkdirSync(path.join(workspace, "src"), { recursive: true });
    const store = openStore(":memory:");
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const insertMessage = store.insertMessage.bind(store);
    // The reason's row answers only once the test lets it, as a busy database might.
    store.insertMessage = async (message) => {
      await insertMessage(message);
      if (message.role === "user" && message.text === "run the unit tests only") {
        holding = true;
        await held;
      }
    };
    // The Stop's read of the chat while the reason's row is held: its abort follows in the same task.
    let stopRead = false;
    const getSession = store.getSession.bind(store);
    store.getSession = async (id) => {
      const row = await getSession(id);
      if (holding && id === sessionId) stopRead = true;
      return row;
    };
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace), store });
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/permission execute");
    const asked = await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: choiceAnswer("Reject", "run the unit tests only") } });
    await expect.poll(() => holding).toBe(true);
    const stopped = api(server.url, `/api/sessions/${sessionId}/abort`, { method: "POST" });
    await expect.poll(() => stopRead).toBe(true);
    release();
    expect((await stopped).status).toBe(202);
    await client.waitTurnEnd(sessionId, from);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    expect(replies(await messages(server.url, sessionId)).at(-1)).toBe('memory: ["/permission execute"]');
  });

  it("acp-qwen-question: shows a Qwen question as a plain question batch, and the agent gets the answers keyed by index, labels joined with comma", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/qwen-question");
    const asked = await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    expect(asked.approval).toBeUndefined();
    expect(asked.questions.map((question) => question.question)).toEqual(["Which database should the app use?", "Which checks should run?"]);
    const second = asked.questions[1]!.options!.map((option) => option.label);
    const answers = [
      { id: "0", selected: ["Postgres"] },
      { id: "1", selected: second.slice(0, 2) },
    ];
    expect((await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers } })).status).toBe(200);
    await client.waitTurnEnd(sessionId, from);
    const said = replies(await messages(server.url, sessionId)).find((text) => text?.startsWith("answers: "));
    expect(JSON.parse(said!.slice("answers: ".length))).toEqual({ outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Postgres", "1": second.slice(0, 2).join(", ") } });
  });

  it("Stop with a Qwen question open ends the turn stopped and retires the question on every tab, though the agent leaves it open", async () => {
    const { server, client, workspace } = await startWithAgent();
    const other = await hosts.open(server.url);
    const sessionId = await newAgentChat(server.url, workspace);
    await say(server.url, client, sessionId, "/qwen-question");
    const asked = await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    await other.waitFor((frame) => frame.type === "question/requested" && frame.rpcId === asked.rpcId);
    expect((await api(server.url, `/api/sessions/${sessionId}/abort`, { json: {} })).status).toBe(202);
    for (const tab of [client, other]) await tab.waitFor((frame) => frame.type === "question/resolved" && frame.rpcId === asked.rpcId && frame.outcome === "aborted");
    await client.waitFor((frame) => frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.state === "idle");
    await say(server.url, client, sessionId, "still there?");
    // The reply itself, not an idle frame: the stopped turn's own idle frames may still be on their way.
    await expect.poll(async () => replies(await messages(server.url, sessionId)), { timeout: 10_000 }).toContain("echo: still there?");
  });

  it("acp-form: a form of the agent is asked as questions with the paired Other, and its content goes back as accept", async () => {
    const { server, client, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    const from = await say(server.url, client, sessionId, "/elicit");
    const asked = await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    expect(asked.origin).toEqual({ kind: "acp-agent", name: "test", title: "Test Agent" });
    expect(asked.questions.map((question) => [question.id, question.options?.map((option) => option.label)])).toEqual([
      ["question_0", ["Red", "Blue"]],
      ["question_1", ["Small", "Medium", "Large"]],
      ["reviewer", undefined],
    ]);
    const answers = (reviewer: string) => [
      { id: "question_0", selected: ["Blue"] },
      { id: "question_1", selected: ["Small", "Large"] },
      { id: "reviewer", selected: [], custom: reviewer },
    ];
    // The panel's own email check takes this address, the form's (RFC 5321, ASCII) does not: the host refuses it, and the
    // question stays pending for an answer the agent will get, rather than taking it and sending the agent a cancel.
    const refused = await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: answers("josé@example.com") } });
    expect(refused.body).toEqual({ accepted: false, reason: "bad-response", detail: "\"reviewer\" must be an email address (letters, digits and !#$%&'*+/=?^_`{|}~- before the @)" });
    const taken = await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: answers("jose@example.com") } });
    expect([taken.status, taken.body]).toEqual([200, { accepted: true }]);
    await client.waitTurnEnd(sessionId, from);
    expect(replies(await messages(server.url, sessionId))).toContain('elicitation: {"action":"accept","content":{"question_0":"blue","question_1":["s","l"],"reviewer":"jose@example.com"}}');
  });

  it("after a host restart the chat's next prompt resumes the agent's session with session/load, its memory kept", async () => {
    const { stateDir, dataDir, first, sessionId } = await rememberedChat();
    await hosts.stop(first.server);
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(first.workspace, { TEST_AGENT_STATE_DIR: stateDir }), dataDir });
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    const rows = await messages(server.url, sessionId);
    expect(rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp.resumed ?? "new"] : []))).toEqual(["new", "restored"]);
    expect(replies(rows).at(-1)).toBe('memory: ["remember me"]');
    // The commands the agent sent while it loaded the session are the chat's menu.
    const restored = rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp] : [])).at(-1);
    expect(restored?.commands).toEqual([{ name: "init", description: "Write an AGENTS.md" }]);
  });

  it("after the agent's process was stopped for being idle, the chat's next prompt starts it again and resumes the session with its memory", async () => {
    const stateDir = tempDir();
    const workspace = tempDir();
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace, { TEST_AGENT_STATE_DIR: stateDir }), agentIdleMs: 300 });
    const sessionId = await newAgentChat(server.url, workspace);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "remember me"));
    const agentState = async () => ((await api(server.url, "/api/agents")).body as { agents: { state: string }[] }).agents[0]?.state;
    await expect.poll(agentState, { timeout: 30_000 }).toBe("idle");
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    const rows = await messages(server.url, sessionId);
    expect(rows.filter((row) => row.failure)).toEqual([]);
    expect(rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [[row.tool.acp.state, row.tool.acp.resumed ?? "new"]] : []))).toEqual([
      ["ready", "new"],
      ["ready", "restored"],
    ]);
    expect(replies(rows).at(-1)).toBe('memory: ["remember me"]');
  });

  it("a message sent while the agent's idle process is still stopping waits for it, then resumes the session in a new one", async () => {
    const stateDir = tempDir();
    const workspace = tempDir();
    const logs: { event: string }[] = [];
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace, { TEST_AGENT_STATE_DIR: stateDir, TEST_AGENT_TERM_MS: "1500" }), agentIdleMs: 300, log: (entry) => void logs.push(entry) });
    const sessionId = await newAgentChat(server.url, workspace);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "remember me"));
    // The idle stop began; the process takes 1.5 s to exit.
    await vi.waitFor(() => expect(logs.some((entry) => entry.event === "acp/agent-idle-stop")).toBe(true), { timeout: 30_000, interval: 5 });
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    const rows = await messages(server.url, sessionId);
    expect(rows.filter((row) => row.failure)).toEqual([]);
    expect(replies(rows).at(-1)).toBe('memory: ["remember me"]');
  });

  it("a crash mid-turn fails the turn with the stderr lines, and the next prompt restarts the agent with session/load and its memory", async () => {
    const stateDir = tempDir();
    const { server, client, workspace } = await startWithAgent({ TEST_AGENT_STATE_DIR: stateDir });
    const sessionId = await newAgentChat(server.url, workspace);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "first"));
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/crash"));
    const failed = (await messages(server.url, sessionId)).find((row) => row.failure);
    expect(failed?.failure).toEqual({ code: "AGENT_EXITED" });
    expect(failed?.text).toContain("exited with code 3");
    expect(failed?.text).toContain("panic: the test agent crashed");
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    const rows = await messages(server.url, sessionId);
    const sessions = rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp] : []));
    expect(sessions.at(-1)).toMatchObject({ state: "ready", resumed: "restored" });
    expect(replies(rows).at(-1)).toContain('"first"');
  });
});

describe("a chat's agent session and mode outlive a failed start and a stopped process", () => {
  const sessionRows = (rows: Message[]) => rows.flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp] : []));
  const setMode = async (url: string, sessionId: string, mode: string) => {
    const { status, body } = await api(url, `/api/sessions/${sessionId}/mode`, { json: { mode } });
    return { status, body };
  };
  /** A host whose agent cannot start: every prompt fails before the agent's session opens. */
  const startBroken = (workspace: string, dataDir: string) =>
    hosts.startSynced({ agents: { file: null, workspaces: [workspace], agents: [{ name: "test", title: "Test Agent", command: path.join(workspace, "no-such-agent"), args: [], env: {}, disabled: false }] }, dataDir });

  it("a start that fails leaves the agent's session and mode to the next prompt, which resumes it with its memory in that mode", async () => {
    const { stateDir, dataDir, first, sessionId } = await rememberedChat();
    expect(await setMode(first.server.url, sessionId, "auto")).toMatchObject({ status: 202 });
    await hosts.stop(first.server);

    const broken = await startBroken(first.workspace, dataDir);
    await broken.client.waitTurnEnd(sessionId, await say(broken.server.url, broken.client, sessionId, "hello"));
    const failedRow = sessionRows(await messages(broken.server.url, sessionId)).at(-1);
    expect(failedRow).toMatchObject({ state: "failed", mode: "auto", modes: [{ id: "default" }, { id: "auto" }] });
    await hosts.stop(broken.server);

    const { server, client } = await hosts.startSynced({ agents: agentsConfig(first.workspace, { TEST_AGENT_STATE_DIR: stateDir }), dataDir });
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/permission edit"));
    const rows = await messages(server.url, sessionId);
    expect(sessionRows(rows).map((row) => [row.state, row.resumed ?? "new", row.mode])).toEqual([
      ["ready", "new", "auto"],
      ["failed", "new", "auto"],
      ["ready", "restored", "auto"],
    ]);
    expect(replies(rows).filter((text) => text?.startsWith("memory:") === true || text?.startsWith("auto:") === true)).toEqual(['memory: ["remember me"]', "auto: edit done without asking"]);
  });

  it("a mode set while no process holds the chat's session is written to its row, shown to every tab, and opens the next session after a restart", async () => {
    const dataDir = tempDir();
    const first = await startWithAgent({}, dataDir);
    const sessionId = await newAgentChat(first.server.url, first.workspace);
    await first.client.waitTurnEnd(sessionId, await say(first.server.url, first.client, sessionId, "hello"));
    expect(await setMode(first.server.url, sessionId, "auto")).toMatchObject({ status: 202 });
    await hosts.stop(first.server);

    const second = await hosts.startSynced({ agents: agentsConfig(first.workspace), dataDir });
    const from = second.client.frames.length;
    expect(await setMode(second.server.url, sessionId, "default")).toEqual({ status: 202, body: { mode: "default" } });
    const shown = await second.client.waitFor<Extract<DownFrame, { type: "message/upserted" }>>(
      (frame, index) => index >= from && frame.type === "message/upserted" && frame.message.tool?.acp?.type === "session",
    );
    expect(shown.message.tool?.acp).toMatchObject({ state: "ready", mode: "default" });
    expect(sessionRows(await messages(second.server.url, sessionId)).map((row) => row.mode)).toEqual(["default"]);
    expect(await setMode(second.server.url, sessionId, "plan")).toEqual({ status: 400, body: { error: { code: "INVALID_BODY", message: 'the chat\'s agent offers no mode "plan"; it offers default, auto' } } });
    await hosts.stop(second.server);

    const { server, client } = await hosts.startSynced({ agents: agentsConfig(first.workspace), dataDir });
    await say(server.url, client, sessionId, "/permission edit");
    const asked = await client.waitFor<Requested>((frame) => frame.type === "question/requested");
    expect(asked.approval?.choices).toEqual(["Allow", "Always allow", "Reject", "Never allow"]);
  });

  it("a chat whose folder is no longer a workspace after a restart fails its turn naming the rule, and starts no agent session there", async () => {
    const dataDir = tempDir();
    const first = await startWithAgent({}, dataDir);
    const sessionId = await newAgentChat(first.server.url, first.workspace);
    await first.client.waitTurnEnd(sessionId, await say(first.server.url, first.client, sessionId, "hello"));
    await hosts.stop(first.server);

    const elsewhere = tempDir();
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(elsewhere), dataDir });
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/cwd"));
    const rows = await messages(server.url, sessionId);
    const failed = rows.filter((row) => row.failure);
    expect(failed.map((row) => row.failure)).toEqual([{ code: "AGENT_FAILED" }]);
    expect(failed[0]?.text).toContain(`Error: the chat's folder ${first.workspace} is not one an agent may work in now:`);
    expect(sessionRows(rows).map((row) => row.state)).toEqual(["ready"]);
  });

  it("a mode the agent refuses for a session it loaded fails the turn naming it, never opens a fresh session that forgets the chat, and sets the mode again next time", async () => {
    const { stateDir, dataDir, first, sessionId } = await rememberedChat();
    await hosts.stop(first.server);
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(first.workspace, { TEST_AGENT_STATE_DIR: stateDir, TEST_AGENT_REFUSE_MODE: "1" }), dataDir });
    expect(await setMode(server.url, sessionId, "auto")).toEqual({ status: 202, body: { mode: "auto" } });
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    const failed = (await messages(server.url, sessionId)).at(-1);
    expect([failed?.failure, failed?.text]).toEqual([{ code: "AGENT_FAILED" }, 'Error: Test Agent did not take the mode "auto": Test Agent answered -32600: Invalid request: modes are locked in this workspace']);
    // The same refusal again: still no fresh session, and no session held without its mode.
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    expect((await messages(server.url, sessionId)).at(-1)?.failure).toEqual({ code: "AGENT_FAILED" });
    expect(await setMode(server.url, sessionId, "default")).toEqual({ status: 202, body: { mode: "default" } });
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/memory"));
    const rows = await messages(server.url, sessionId);
    expect(replies(rows).at(-1)).toBe('memory: ["remember me"]');
    expect(sessionRows(rows).map((row) => [row.state, row.resumed ?? "new"])).toEqual([
      ["ready", "new"],
      ["failed", "new"],
      ["failed", "new"],
      ["ready", "restored"],
    ]);
  });

  it("tells a mode the live agent refused with 400, naming what it said, and keeps the mode it had", async () => {
    const { server, client, workspace } = await startWithAgent({ TEST_AGENT_REFUSE_MODE: "1" });
    const sessionId = await newAgentChat(server.url, workspace);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "hello"));
    const refused = await setMode(server.url, sessionId, "auto");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: "INVALID_BODY", message: expect.stringMatching(/^the chat's agent refused the mode "auto": Test Agent answered -32600: .*modes are locked/) } });
    expect(sessionRows(await messages(server.url, sessionId)).map((row) => row.mode)).toEqual(["default"]);
  });

  it("lets go of a session whose agent never answers a mode change, keeping the mode in the row for the next prompt", async () => {
    const logs: { event: string }[] = [];
    const workspace = tempDir();
    mkdirSync(path.join(workspace, "src"), { recursive: true });
    const { server, client } = await hosts.startSynced({ agents: agentsConfig(workspace, { TEST_AGENT_REFUSE_MODE: "ignore-once" }), agentCancelGraceMs: 300, log: (entry) => void logs.push(entry) });
    const sessionId = await newAgentChat(server.url, workspace);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "hello"));
    expect(await setMode(server.url, sessionId, "auto")).toEqual({ status: 202, body: { mode: "auto" } });
    expect(logs.filter((entry) => entry.event === "acp/set-mode-ignored")).toEqual([{ event: "acp/set-mode-ignored", sessionId, graceMs: 300 }]);
    await client.waitTurnEnd(sessionId, await say(server.url, client, sessionId, "/permission edit"));
    const rows = await messages(server.url, sessionId);
    expect(sessionRows(rows).map((row) => [row.state, row.resumed ?? "new", row.mode])).toEqual([
      ["ready", "new", "auto"],
      ["ready", "restored", "auto"],
    ]);
    expect(replies(rows).at(-1)).toBe("auto: edit done without asking");
  });

  it("refuses a mode while the chat's agent session never opened (its first start failed), with 409 AGENT_NOT_STARTED", async () => {
    const workspace = tempDir();
    const broken = await startBroken(workspace, tempDir());
    const sessionId = await newAgentChat(broken.server.url, workspace);
    await broken.client.waitTurnEnd(sessionId, await say(broken.server.url, broken.client, sessionId, "hello"));
    expect(sessionRows(await messages(broken.server.url, sessionId)).map((row) => row.state)).toEqual(["failed"]);
    expect(await setMode(broken.server.url, sessionId, "plan")).toMatchObject({ status: 409, body: { error: { code: "AGENT_NOT_STARTED" } } });
  });

  it("refuses a mode before the chat's first message opened its agent session, with 409 AGENT_NOT_STARTED", async () => {
    const { server, workspace } = await startWithAgent();
    const sessionId = await newAgentChat(server.url, workspace);
    expect(await setMode(server.url, sessionId, "auto")).toEqual({
      status: 409,
      body: { error: { code: "AGENT_NOT_STARTED", message: "the chat's agent session opens with its first message: give the mode when creating the chat, or set it after that" } },
    });
  });
});

describe("an agent's modes as the session row keeps them [acp-rows]", () => {
  it("removes bidi controls from names and descriptions, and names a mode left with no name by its id", () => {
    expect(
      modesOf({
        currentModeId: "plan",
        availableModes: [
          { id: "plan", name: "Pl\u202Ean", description: "Think \u2066first\u2069" },
          { id: "yolo", name: "\u200F", description: "\u202E" },
          { id: "auto", name: "Auto", description: null },
        ],
      }),
    ).toEqual({ mode: "plan", modes: [{ id: "plan", name: "Plan", description: "Think first" }, { id: "yolo", name: "yolo" }, { id: "auto", name: "Auto" }] });
    expect(modesOf(null)).toEqual({});
  });
});
