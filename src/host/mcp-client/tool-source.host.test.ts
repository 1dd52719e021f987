import { afterEach, describe, expect, it, vi } from "vitest";
import { approvalAnswer, approvalQuestions, type ApprovalDecision } from "../../protocol/approval";
import type { Message, QuestionRequestedFrame } from "../../protocol/schemas";
import { parseMcpConfig } from "./config";
import { createScriptedModel } from "../models/scripted";
import type { Model, ModelRequest } from "../models/types";
import { createCleanup } from "../../testing/host/cleanup";
import { api, connect, createSession, startTestServer, type FrameClient } from "../../testing/host/harness";
import { startTestMcpHttpServer, TEST_MCP_STDIO_ARGS, TINY_PNG_BASE64 } from "../../testing/host/test-mcp-server";
import { formatToolErrorText } from "../tools/registry";

const cleanup = createCleanup();
afterEach(() => cleanup.closeAll());

/** The scripted model, with every request it got kept, so a test can read what the model was offered and told. */
function recordingModel(): { model: Model; requests: ModelRequest[] } {
  const scripted = createScriptedModel();
  const requests: ModelRequest[] = [];
  return { requests, model: { name: "recording", step: (request) => (requests.push(request), scripted.step(request)) } };
}

async function startWithTestServer(autoApprove: string[] = [], notes: Record<string, unknown> = { command: process.execPath, args: TEST_MCP_STDIO_ARGS }) {
  const recording = recordingModel();
  const mcpServers = parseMcpConfig({ mcpServers: { notes: { ...notes, autoApprove } } }, "/test/parley.mcp.json");
  const server = await startTestServer({ model: recording.model, mcpServers });
  cleanup.servers.push(server);
  for (let attempt = 0; attempt < 200; attempt++) {
    const { body } = await api(server.url, "/api/health");
    if ((body as { mcp?: { state: string }[] }).mcp?.[0]?.state === "ready") break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const frames = await connect(server.url);
  cleanup.sockets.push(frames);
  const sessionId = await createSession(server.url);
  return { url: server.url, frames, sessionId, requests: recording.requests };
}

type Host = Awaited<ReturnType<typeof startWithTestServer>>;

async function send(host: Host, text: string) {
  const result = await api(host.url, `/api/sessions/${host.sessionId}/messages`, { json: { text } });
  expect(result.status).toBe(202);
}

function approvalAfter(frames: FrameClient, from: number): Promise<QuestionRequestedFrame> {
  return frames.waitFor<QuestionRequestedFrame>((frame, index) => index >= from && frame.type === "question/requested" && frame.approval !== undefined, "an approval request");
}

async function decide(host: Host, rpcId: string, decision: ApprovalDecision) {
  const result = await api(host.url, "/api/respond", { json: { type: "answer", rpcId, sessionId: host.sessionId, answers: approvalAnswer(decision) } });
  expect(result.body).toEqual({ accepted: true });
}

async function transcript(host: Host): Promise<Message[]> {
  return ((await api(host.url, `/api/sessions/${host.sessionId}`)).body as { messages: Message[] }).messages;
}

/** Sends a message and waits for its turn to end; returns the tool row and the reply it came to. */
async function turn(host: Host, text: string, answer?: (request: QuestionRequestedFrame) => Promise<void>) {
  const from = host.frames.frames.length;
  await send(host, text);
  if (answer) await answer(await approvalAfter(host.frames, from));
  await host.frames.waitTurnEnd(host.sessionId, from);
  const messages = await transcript(host);
  const tool = messages.findLast((message) => message.role === "tool")!.tool!;
  return { tool, reply: messages.at(-1)!.text, asked: host.frames.frames.slice(from).filter((frame) => frame.type === "question/requested").length };
}


describe("MCP tool calls in the agent loop, against the test MCP server over stdio [mcp-tool-call]", { timeout: 30_000 }, () => {
  it("offers the servers' tools to the model with their JSON Schemas beside Parley's own", async () => {
    const host = await startWithTestServer();
    const from = host.frames.frames.length;
    await send(host, "/echo hi");
    await host.frames.waitTurnEnd(host.sessionId, from);
    const offered = host.requests[0]!.tools;
    expect(offered.slice(0, 2).map((tool) => tool.name)).toEqual(["ask_user_question", "present_plan"]);
    expect(offered.find((tool) => tool.name === "mcp__notes__write_note")).toEqual({
      name: "mcp__notes__write_note",
      description: "Writes a note",
      parameters: expect.objectContaining({ type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"] }),
    });
  });

  it("approval-request: asks before an acting tool with the full arguments, and Allow once runs it once", async () => {
    const host = await startWithTestServer();
    let request: QuestionRequestedFrame | null = null;
    const first = await turn(host, '/tool mcp__notes__write_note {"name":"plan","text":"ship it"}', async (frame) => {
      request = frame;
      await decide(host, frame.rpcId, { kind: "allow-once" });
    });
    const approval = { server: "notes", tool: "write_note", arguments: '{"name":"plan","text":"ship it"}' };
    expect(request).toEqual({ type: "question/requested", rpcId: expect.any(String), sessionId: host.sessionId, questions: approvalQuestions(approval), createdAt: expect.any(String), origin: { kind: "mcp-server", name: "notes" }, approval });
    expect(first.reply).toBe("Tool result: saved plan");
    expect(first.tool).toEqual({
      callId: "call_1",
      name: "mcp__notes__write_note",
      args: { name: "plan", text: "ship it" },
      status: "ok",
      result: "saved plan",
      outcome: { kind: "mcp-result", content: [{ type: "text", text: "saved plan" }] },
      mcp: { server: "notes", tool: "write_note", approval: "allowed-once" },
    });
    const second = await turn(host, '/tool mcp__notes__write_note {"name":"plan","text":"again"}', (frame) => decide(host, frame.rpcId, { kind: "allow-once" }));
    expect([second.asked, second.reply]).toEqual([1, "Tool result: saved plan"]);
  });

  it("mcp-grants: Allow for this chat stores a grant, the next call runs without asking, and revoking it asks again", async () => {
    const host = await startWithTestServer();
    const first = await turn(host, '/tool mcp__notes__write_note {"name":"a","text":"1"}', (frame) => decide(host, frame.rpcId, { kind: "allow-for-chat" }));
    expect(first.tool.mcp).toEqual({ server: "notes", tool: "write_note", approval: "allowed-for-chat" });
    const grants = await api(host.url, `/api/sessions/${host.sessionId}/grants`);
    expect(grants.body).toEqual({ grants: [{ server: "notes", tool: "write_note", grantedAt: expect.any(String) }] });

    const second = await turn(host, '/tool mcp__notes__write_note {"name":"b","text":"2"}');
    expect([second.asked, second.reply, second.tool.mcp]).toEqual([0, "Tool result: saved b", { server: "notes", tool: "write_note", approval: "granted" }]);

    expect((await api(host.url, `/api/sessions/${host.sessionId}/grants/notes/write_note`, { method: "DELETE" })).status).toBe(204);
    expect((await api(host.url, `/api/sessions/${host.sessionId}/grants/notes/write_note`, { method: "DELETE" })).status).toBe(404);
    expect((await api(host.url, `/api/sessions/${host.sessionId}/grants`)).body).toEqual({ grants: [] });
    const third = await turn(host, '/tool mcp__notes__write_note {"name":"c","text":"3"}', (frame) => decide(host, frame.rpcId, { kind: "allow-once" }));
    expect(third.asked).toBe(1);

    const other = await createSession(host.url);
    expect((await api(host.url, `/api/sessions/${other}/grants`)).body).toEqual({ grants: [] });
    expect((await api(host.url, "/api/sessions/nope/grants")).status).toBe(404);
    expect((await api(host.url, "/api/sessions/nope/grants/notes/write_note", { method: "DELETE" })).body).toEqual({ error: { code: "NOT_FOUND", message: "no session nope" } });
  });

  it("[mcp-approval] Deny returns a tool error carrying the reason to the model, and the turn goes on without running the tool", async () => {
    const host = await startWithTestServer();
    const denied = await turn(host, '/tool mcp__notes__write_note {"name":"secret","text":"x"}', (frame) => decide(host, frame.rpcId, { kind: "deny", reason: "not that note" }));
    const error = { name: "ToolError", code: "TOOL_DENIED", message: "the human denied this call: not that note" };
    expect(denied.reply).toBe("Error: TOOL_DENIED");
    expect(denied.tool).toEqual({
      callId: "call_1",
      name: "mcp__notes__write_note",
      args: { name: "secret", text: "x" },
      status: "error",
      result: formatToolErrorText(error),
      error,
      mcp: { server: "notes", tool: "write_note", approval: "denied", reason: "not that note" },
    });
    expect(host.requests.at(-1)!.history.at(-1)).toEqual({ role: "tool", callId: "call_1", name: "mcp__notes__write_note", text: formatToolErrorText(error), isError: true });
    const events = await turn(host, "/tool mcp__notes__events {}");
    expect(events.reply).toBe("Tool result: []");
  });

  it("[mcp-approval] runs a read-only tool and a tool in autoApprove without asking", async () => {
    const host = await startWithTestServer(["write_note"]);
    const read = await turn(host, '/tool mcp__notes__read_note {"name":"x"}');
    expect([read.asked, read.reply, read.tool.mcp]).toEqual([0, "Tool result: no note named x", { server: "notes", tool: "read_note", approval: "read-only" }]);
    const write = await turn(host, '/tool mcp__notes__write_note {"name":"x","text":"y"}');
    expect([write.asked, write.reply, write.tool.mcp]).toEqual([0, "Tool result: saved x", { server: "notes", tool: "write_note", approval: "auto-approved" }]);
  });

  it("Stop aborts a slow tool: the row ends stopped and notifications/cancelled reaches the server (over HTTP, whose events the test reads)", async () => {
    const server = await startTestMcpHttpServer();
    cleanup.servers.push(server);
    const host = await startWithTestServer([], { type: "http", url: server.url });
    const from = host.frames.frames.length;
    await send(host, '/tool mcp__notes__slow {"ms":20000}');
    await vi.waitFor(() => expect(server.events).toEqual(["slow:started"]), { timeout: 10_000 });
    expect((await api(host.url, `/api/sessions/${host.sessionId}/abort`, { json: {} })).body).toEqual({ aborted: true });
    await host.frames.waitTurnEnd(host.sessionId, from);
    const tool = (await transcript(host)).findLast((message) => message.role === "tool")!.tool!;
    expect([tool.status, tool.mcp]).toEqual(["stopped", { server: "notes", tool: "slow", approval: "read-only" }]);
    await vi.waitFor(() => expect(server.events).toEqual(["slow:started", "slow:aborted"]), { timeout: 10_000 });
  });

  it("[mcp-media] stores a returned image and serves it from /api/media/:id with its content type, never a remote URL", async () => {
    const host = await startWithTestServer();
    const image = await turn(host, "/tool mcp__notes__image {}");
    expect(image.reply).toBe("Tool result: [image image/png]");
    const content = image.tool.outcome?.kind === "mcp-result" ? image.tool.outcome.content : [];
    expect(content).toEqual([{ type: "image", mediaId: expect.any(String), mimeType: "image/png" }]);
    const mediaId = (content[0] as { mediaId: string }).mediaId;
    const response = await fetch(`${host.url}/api/media/${mediaId}`);
    expect([response.status, response.headers.get("content-type"), response.headers.get("x-content-type-options")]).toEqual([200, "image/png", "nosniff"]);
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(TINY_PNG_BASE64, "base64"))).toBe(true);
    expect((await api(host.url, "/api/media/nope")).status).toBe(404);
  });

  it("[mcp-tool-row] reports a server-side tool error as MCP_TOOL_ERROR with the server's text", async () => {
    const host = await startWithTestServer();
    const failed = await turn(host, "/tool mcp__notes__fail {}");
    expect(failed.reply).toBe("Error: MCP_TOOL_ERROR");
    expect([failed.tool.status, failed.tool.error]).toEqual(["error", { name: "McpToolError", code: "MCP_TOOL_ERROR", message: "the tool failed on purpose" }]);
    expect(failed.tool.outcome).toEqual({ kind: "mcp-result", content: [{ type: "text", text: "the tool failed on purpose" }] });
    const missing = await turn(host, "/tool mcp__elsewhere__thing {}");
    expect([missing.reply, missing.tool.mcp]).toEqual(["Error: MCP_SERVER_UNAVAILABLE", { server: "elsewhere", tool: "thing" }]);
  });
});
