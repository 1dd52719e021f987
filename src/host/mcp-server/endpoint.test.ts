import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message, QuestionResolvedFrame, Session } from "../../protocol/schemas";
import { api } from "../../testing/host/harness";
import { createFrontDoor, nextQuestion } from "../../testing/host/mcp-front-door";
import { listedBuiltInTools } from "../tools/built-in";
import { CLIENT_NAME_CHARS, clientNameOf } from "./endpoint";

const door = createFrontDoor({ name: "claude-code", title: "Claude Code" });
afterEach(() => door.closeAll());
const { start, mcpClient } = door;

const BATCH = {
  questions: [
    { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
    { id: "name", question: "Project name?" },
  ],
};

function builtInTools() {
  return listedBuiltInTools().list();
}

describe("clientNameOf", () => {
  it("takes the title, else the name, as one line without bidi controls, cut with an ellipsis past its bound", () => {
    expect(clientNameOf({ name: "claude-code", title: "Claude Code" })).toBe("Claude Code");
    expect(clientNameOf({ name: "codex" })).toBe("codex");
    expect(clientNameOf({ name: "codex", title: " \u202E\u2066 " })).toBe("codex");
    expect(clientNameOf({ name: "  my\n\tagent\u202C  " })).toBe("my agent");
    expect(clientNameOf({ name: "\u200F", title: "" })).toBe("MCP client");
    expect(clientNameOf({ name: "a".repeat(CLIENT_NAME_CHARS) })).toBe("a".repeat(CLIENT_NAME_CHARS));
    expect(clientNameOf({ name: "a".repeat(CLIENT_NAME_CHARS + 1) })).toBe(`${"a".repeat(CLIENT_NAME_CHARS - 1)}…`);
    // Characters, not UTF-16 units: an astral character is never cut in half.
    expect(clientNameOf({ name: "😀".repeat(CLIENT_NAME_CHARS + 5) })).toBe(`${"😀".repeat(CLIENT_NAME_CHARS - 1)}…`);
  });
});

describe("/mcp over Streamable HTTP", { timeout: 30_000 }, () => {
  it("lists ask_user_question and present_plan with the built-in agent's very schema and description", async () => {
    const { server } = await start();
    const { client } = await mcpClient(server.url);
    const { tools } = await client.listTools();
    expect(tools).toEqual(builtInTools().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters })));
  });

  it("asks through the panel in a Parley session titled from clientInfo and returns the answer JSON as the result", async () => {
    const { server, socket } = await start({ mcp: { now: () => new Date(2026, 0, 2, 9, 5) } });
    const { client } = await mcpClient(server.url);
    const call = client.callTool({ name: "ask_user_question", arguments: BATCH });
    const frame = await nextQuestion(socket);
    expect(frame.questions).toEqual([
      { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
      { id: "name", question: "Project name?" },
    ]);
    expect(frame.origin).toEqual({ kind: "mcp-client", name: "Claude Code" });
    const sessions = (await api(server.url, "/api/sessions")).body as { sessions: Session[] };
    expect(sessions.sessions.map(({ title, agent, state }) => ({ title, agent, state }))).toEqual([
      { title: "Claude Code · 09:05", agent: { kind: "mcp-client", name: "Claude Code" }, state: "waiting" },
    ]);

    const receipt = await api(server.url, "/api/respond", {
      json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "pkg", selected: ["pnpm (Recommended)"] }, { id: "name", selected: [], custom: "parley" }] },
    });
    expect(receipt.body).toEqual({ accepted: true });
    expect(await call).toEqual({ content: [{ type: "text", text: '{"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]},{"id":"name","selected":[],"custom":"parley"}]}' }] });

    const detail = (await api(server.url, `/api/sessions/${frame.sessionId}`)).body as { session: Session; messages: Message[] };
    expect(detail.messages.map((message) => ({ role: message.role, name: message.tool?.name, status: message.tool?.status, args: message.tool?.args, result: message.tool?.result }))).toEqual([
      {
        role: "tool",
        name: "ask_user_question",
        status: "ok",
        args: BATCH,
        result: '{"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]},{"id":"name","selected":[],"custom":"parley"}]}',
      },
    ]);
    expect(detail.session.state).toBe("idle");
  });

  it("keeps one Parley session per MCP session, named by the client's name when it gives no title", async () => {
    const { server, socket } = await start({ mcp: { now: () => new Date(2026, 0, 2, 17, 30) } });
    const { client } = await mcpClient(server.url, { info: { name: "codex" } });
    for (const answer of ["Approve", "Keep planning"]) {
      const from = socket.frames.length;
      const call = client.callTool({ name: "present_plan", arguments: { plan: "1. Build it" } });
      const frame = await nextQuestion(socket, from);
      await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "plan-review", selected: [answer] }, { id: "plan-note", selected: [] }] } });
      expect(await call).toEqual({ content: [{ type: "text", text: answer === "Approve" ? "approved" : "Keep planning" }] });
    }
    const sessions = (await api(server.url, "/api/sessions")).body as { sessions: Session[] };
    expect(sessions.sessions.map(({ title, agent }) => ({ title, agent }))).toEqual([{ title: "codex · 17:30", agent: { kind: "mcp-client", name: "codex" } }]);
  });

  it("names a client by a plain label within bounds, whatever its clientInfo says, so its questions reach every tab", async () => {
    const { server, socket } = await start({ mcp: { now: () => new Date(2026, 0, 2, 8, 0) } });
    // A name past the frame's bound, with a bidi override: the tabs' own check of the frame would drop the question.
    const long = `Evil\u202E${"x".repeat(250)}`;
    const { client } = await mcpClient(server.url, { info: { name: long } });
    const call = client.callTool({ name: "ask_user_question", arguments: BATCH });
    const frame = await nextQuestion(socket);
    const shown = `Evil${"x".repeat(95)}…`;
    expect(frame.origin).toEqual({ kind: "mcp-client", name: shown });
    const sessions = (await api(server.url, "/api/sessions")).body as { sessions: Session[] };
    expect(sessions.sessions.map(({ title, agent }) => ({ title, agent }))).toEqual([{ title: `${shown} · 08:00`, agent: { kind: "mcp-client", name: shown } }]);
    await api(server.url, "/api/respond", { json: { type: "cancel", rpcId: frame.rpcId, sessionId: frame.sessionId } });
    await call;
  });

  it("keeps the Parley session for a client that reconnects with the same Mcp-Session-Id", async () => {
    const { server, socket } = await start();
    const { client, sessionId } = await mcpClient(server.url);
    const firstCall = client.callTool({ name: "ask_user_question", arguments: BATCH });
    const first = await nextQuestion(socket);
    await api(server.url, "/api/respond", { json: { type: "cancel", rpcId: first.rpcId, sessionId: first.sessionId } });
    await firstCall;
    await client.close();

    const { client: again } = await mcpClient(server.url, { sessionId });
    const from = socket.frames.length;
    const secondCall = again.callTool({ name: "present_plan", arguments: { plan: "1. Again" } });
    const second = await nextQuestion(socket, from);
    expect(second.sessionId).toBe(first.sessionId);
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: second.rpcId, sessionId: second.sessionId, answers: [{ id: "plan-review", selected: ["Approve"] }, { id: "plan-note", selected: [] }] } });
    expect(await secondCall).toEqual({ content: [{ type: "text", text: "approved" }] });
    expect(((await api(server.url, "/api/sessions")).body as { sessions: Session[] }).sessions).toHaveLength(1);
  });

  it("returns a cancelled question as the tool error the built-in agent gets", async () => {
    const { server, socket } = await start();
    const { client } = await mcpClient(server.url);
    const call = client.callTool({ name: "ask_user_question", arguments: BATCH });
    const frame = await nextQuestion(socket);
    await api(server.url, "/api/respond", { json: { type: "cancel", rpcId: frame.rpcId, sessionId: frame.sessionId } });
    expect(await call).toEqual({
      content: [{ type: "text", text: 'Error: the user cancelled ask_user_question\n{"name":"UserInteractionError","code":"ASK_CANCELLED"}' }],
      isError: true,
    });
  });

  it("answers bad arguments with INVALID_ARGS naming each path, and asks nothing", async () => {
    const { server, socket } = await start();
    const { client } = await mcpClient(server.url);
    const result = await client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "", question: "A?", recommended: true }] } });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Error: invalid arguments: questions.0.id: Too small: expected string to have >=1 characters; questions.0: Unrecognized key: "recommended"\n{"name":"ToolError","code":"INVALID_ARGS"}',
        },
      ],
      isError: true,
    });
    expect(socket.frames.filter((frame) => frame.type === "question/requested")).toEqual([]);
  });

  it("Stop in the session aborts the client's pending calls: the question resolves aborted and the call gets ASK_ABORTED", async () => {
    const { server, socket } = await start();
    const { client } = await mcpClient(server.url);
    const first = client.callTool({ name: "ask_user_question", arguments: BATCH });
    const frame = await nextQuestion(socket);
    const from = socket.frames.length;
    const second = client.callTool({ name: "present_plan", arguments: { plan: "1. Ship" } });
    const secondFrame = await nextQuestion(socket, from);
    expect((await api(server.url, `/api/sessions/${frame.sessionId}/abort`, { method: "POST" })).body).toEqual({ aborted: true });
    const aborted = { content: [{ type: "text", text: 'Error: ask_user_question was aborted before the user answered\n{"name":"UserInteractionError","code":"ASK_ABORTED"}' }], isError: true };
    expect(await first).toEqual(aborted);
    expect(await second).toEqual(aborted);
    const resolved = socket.frames.filter((item): item is QuestionResolvedFrame => item.type === "question/resolved");
    expect(resolved.map(({ rpcId, outcome }) => ({ rpcId, outcome })).sort((a, b) => a.rpcId.localeCompare(b.rpcId))).toEqual(
      [frame.rpcId, secondFrame.rpcId].sort().map((rpcId) => ({ rpcId, outcome: "aborted" })),
    );
    const detail = (await api(server.url, `/api/sessions/${frame.sessionId}`)).body as { messages: Message[] };
    expect(detail.messages.map((message) => message.tool?.status)).toEqual(["stopped", "stopped"]);
  });
});

describe("an outside agent's Parley session", { timeout: 30_000 }, () => {
  it("keeps its agent across a host restart and refuses chat messages with 409 AGENT_SESSION", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-agent-"));
    try {
      const first = await start({ dataDir });
      const { client } = await mcpClient(first.server.url);
      const call = client.callTool({ name: "ask_user_question", arguments: BATCH });
      const frame = await nextQuestion(first.socket);
      await api(first.server.url, "/api/respond", { json: { type: "cancel", rpcId: frame.rpcId, sessionId: frame.sessionId } });
      await call;
      const posted = await api(first.server.url, `/api/sessions/${frame.sessionId}/messages`, { json: { text: "hello?" } });
      expect(posted).toMatchObject({ status: 409, body: { error: { code: "AGENT_SESSION" } } });
      await door.closeAll();

      const second = await start({ dataDir });
      const detail = (await api(second.server.url, `/api/sessions/${frame.sessionId}`)).body as { session: Session };
      expect(detail.session.agent).toEqual({ kind: "mcp-client", name: "Claude Code" });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
