import { afterEach, describe, expect, it } from "vitest";
import type { Message, QuestionRequestedFrame } from "../../protocol/schemas";
import { api } from "../../testing/host/harness";
import { createFrontDoor, nextQuestion, resolvedFrame } from "../../testing/host/mcp-front-door";

const door = createFrontDoor({ name: "test-agent" });
afterEach(() => door.closeAll());
const { start, mcpClient } = door;

const ASK = { questions: [{ id: "go", question: "Go ahead?", options: [{ label: "Yes" }, { label: "No" }] }] };

async function toolStatuses(url: string, sessionId: string) {
  const detail = (await api(url, `/api/sessions/${sessionId}`)).body as { messages: Message[] };
  return detail.messages.map((message) => message.tool?.status);
}

/** A fresh socket's replay: the rpc id of every question still pending on the host. */
async function pendingOnHost(url: string): Promise<string[]> {
  return (await door.pendingOnHost(url)).map((frame) => frame.rpcId);
}

/** A tools/call POST over plain fetch in an existing MCP session, so the test can drop its stream. */
function rawCall(url: string, sessionId: string, id: number, signal: AbortSignal) {
  return fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "ask_user_question", arguments: ASK } }),
    signal,
  });
}

/** An initialize over plain fetch: a client that then goes away without DELETE. */
async function rawInitialize(url: string): Promise<string> {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "gone-agent", version: "1" } } }),
  });
  await response.text();
  return response.headers.get("mcp-session-id")!;
}

describe("/mcp aborts a call nobody waits for", { timeout: 30_000 }, () => {
  it("a client's notifications/cancelled resolves the question aborted on every socket and the row reads stopped", async () => {
    const { server, socket } = await start();
    const other = await door.socket(server.url);
    const { client } = await mcpClient(server.url);
    const controller = new AbortController();
    const call = client.callTool({ name: "ask_user_question", arguments: ASK }, undefined, { signal: controller.signal });
    const frame = await nextQuestion(socket);
    controller.abort("the user pressed Esc");
    await expect(call).rejects.toThrow("the user pressed Esc");
    for (const tab of [socket, other]) expect(await resolvedFrame(tab, frame.rpcId)).toEqual({ type: "question/resolved", rpcId: frame.rpcId, sessionId: frame.sessionId, outcome: "aborted" });
    await expect.poll(() => toolStatuses(server.url, frame.sessionId)).toEqual(["stopped"]);
    expect(await pendingOnHost(server.url)).toEqual([]);
  });

  it("a closed response stream aborts exactly the calls it carried", async () => {
    const { server, socket } = await start();
    const { sessionId } = await mcpClient(server.url);
    const dropped = new AbortController();
    const kept = new AbortController();
    const droppedResponse = await rawCall(server.url, sessionId, 901, dropped.signal);
    const first = await nextQuestion(socket);
    const keptResponse = await rawCall(server.url, sessionId, 902, kept.signal);
    const second = await socket.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.rpcId !== first.rpcId, "second question");
    expect([droppedResponse.status, keptResponse.status]).toEqual([200, 200]);
    dropped.abort();
    expect(await resolvedFrame(socket, first.rpcId)).toEqual({ type: "question/resolved", rpcId: first.rpcId, sessionId: first.sessionId, outcome: "aborted" });
    expect(await pendingOnHost(server.url)).toEqual([second.rpcId]);

    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: second.rpcId, sessionId: second.sessionId, answers: [{ id: "go", selected: ["Yes"] }] } });
    const text = await keptResponse.text();
    expect(text).toContain(`data: ${JSON.stringify({ result: { content: [{ type: "text", text: '{"answers":[{"id":"go","selected":["Yes"]}]}' }] }, jsonrpc: "2.0", id: 902 })}`);
  });

  it("DELETE /mcp ends the session at once: its pending call resolves aborted and later requests get Session not found", async () => {
    const { server, socket } = await start();
    const { client, transport, sessionId } = await mcpClient(server.url);
    const call = client.callTool({ name: "ask_user_question", arguments: ASK });
    const frame = await nextQuestion(socket);
    await transport.terminateSession();
    expect(await resolvedFrame(socket, frame.rpcId)).toEqual({ type: "question/resolved", rpcId: frame.rpcId, sessionId: frame.sessionId, outcome: "aborted" });
    await expect.poll(() => toolStatuses(server.url, frame.sessionId)).toEqual(["stopped"]);
    void call.catch((error: unknown) => expect(error).toBeInstanceOf(Error));

    const after = await rawCall(server.url, sessionId, 7, new AbortController().signal);
    expect({ status: after.status, body: await after.json() }).toEqual({ status: 404, body: { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null } });
    expect(await pendingOnHost(server.url)).toEqual([]);
  });

  it("reaps an idle MCP session and aborts the question its unclaimed ticket left pending", async () => {
    const { server, socket } = await start({ mcp: { idleTimeoutMs: 150, waitSeconds: 0.05 } });
    const sessionId = await rawInitialize(server.url);
    const waiting = await rawCall(server.url, sessionId, 1, new AbortController().signal);
    expect(await waiting.text()).toContain('\\"status\\":\\"waiting\\"');
    const frame = await nextQuestion(socket);
    expect(await resolvedFrame(socket, frame.rpcId)).toEqual({ type: "question/resolved", rpcId: frame.rpcId, sessionId: frame.sessionId, outcome: "aborted" });
    const after = await rawCall(server.url, sessionId, 2, new AbortController().signal);
    expect(after.status).toBe(404);
    expect(await pendingOnHost(server.url)).toEqual([]);
  });

  it("keeps a session with a call in flight however long the human takes", async () => {
    const { server, socket } = await start({ mcp: { idleTimeoutMs: 100 } });
    const { client } = await mcpClient(server.url);
    const call = client.callTool({ name: "ask_user_question", arguments: ASK });
    const frame = await nextQuestion(socket);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "go", selected: ["No"] }] } });
    expect(await call).toEqual({ content: [{ type: "text", text: '{"answers":[{"id":"go","selected":["No"]}]}' }] });
  });

  it("deleting the Parley session aborts the call, and the client's next call opens a new Parley session", async () => {
    const { server, socket } = await start();
    const { client } = await mcpClient(server.url);
    const call = client.callTool({ name: "ask_user_question", arguments: ASK });
    const frame = await nextQuestion(socket);
    expect((await api(server.url, `/api/sessions/${frame.sessionId}`, { method: "DELETE" })).status).toBe(204);
    expect(await call).toEqual({
      content: [{ type: "text", text: 'Error: ask_user_question was aborted before the user answered\n{"name":"UserInteractionError","code":"ASK_ABORTED"}' }],
      isError: true,
    });
    const from = socket.frames.length;
    const next = client.callTool({ name: "ask_user_question", arguments: ASK });
    const again = await nextQuestion(socket, from);
    expect(again.sessionId).not.toBe(frame.sessionId);
    await api(server.url, "/api/respond", { json: { type: "cancel", rpcId: again.rpcId, sessionId: again.sessionId } });
    expect((await next).isError).toBe(true);
  });
});

describe("/mcp when its host stops", { timeout: 30_000 }, () => {
  it("a call in flight gets its aborted result on its stream before the host closes it", async () => {
    const { server, socket } = await start();
    const { sessionId } = await mcpClient(server.url);
    const response = await rawCall(server.url, sessionId, 31, new AbortController().signal);
    await nextQuestion(socket);
    expect(response.status).toBe(200);
    await server.close();
    const result = { content: [{ type: "text", text: 'Error: web user-interaction provider was disposed\n{"name":"UserInteractionError","code":"ASK_ABORTED"}' }], isError: true };
    expect(await response.text()).toContain(`data: ${JSON.stringify({ result, jsonrpc: "2.0", id: 31 })}`);
  });
});
