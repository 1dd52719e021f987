import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { LIMITS, type QuestionRequestedFrame } from "../../protocol/schemas";
import { api } from "../../testing/host/harness";
import { createFaultyStore } from "../../testing/host/faulty-store";
import { createFrontDoor, nextQuestion, resolvedFrame } from "../../testing/host/mcp-front-door";
import { openStore } from "../store";

const TOKEN = "mcp-token-0123456789abcdef";
const door = createFrontDoor({ name: "fault-agent" });
afterEach(() => door.closeAll());
const { host: startHost, mcpClient, pendingOnHost } = door;

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", error: { code, message }, id: null });
const INITIALIZE = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/mcp`, { method: "POST", headers: { ...JSON_HEADERS, ...headers }, body });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as unknown };
}

/** The one JSON-RPC message of an SSE response body. */
function sseMessage(text: string): unknown {
  const line = text.split("\n").find((item) => item.startsWith("data: "));
  return line === undefined ? null : JSON.parse(line.slice("data: ".length));
}

const ASK = { questions: [{ id: "ok", question: "OK?", options: [{ label: "Yes" }, { label: "No" }] }] };

describe("/mcp refuses bad input with clear JSON-RPC errors and changes nothing", { timeout: 60_000 }, () => {
  it("answers malformed JSON, a missing or unknown Mcp-Session-Id, a non-initialize first message, an oversized body and other methods", async () => {
    const server = await startHost();
    const { sessionId } = await mcpClient(server.url);
    const malformed = await post(server.url, "{not json", { "mcp-session-id": sessionId });
    expect({ status: malformed.status, body: malformed.json() }).toEqual({ status: 400, body: rpcError(-32700, "Parse error: Invalid JSON") });

    const notRpc = await post(server.url, JSON.stringify({ hello: "world" }), { "mcp-session-id": sessionId });
    expect({ status: notRpc.status, body: notRpc.json() }).toEqual({ status: 400, body: rpcError(-32700, "Parse error: Invalid JSON-RPC message") });

    const missing = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect({ status: missing.status, body: missing.json() }).toEqual({ status: 400, body: rpcError(-32000, "Bad Request: Mcp-Session-Id header is required") });

    const foreign = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), { "mcp-session-id": "not-a-session" });
    expect({ status: foreign.status, body: foreign.json() }).toEqual({ status: 404, body: rpcError(-32001, "Session not found") });

    const huge = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask_user_question", arguments: { pad: "x".repeat(LIMITS.httpBodyBytes) } } }), { "mcp-session-id": sessionId });
    expect({ status: huge.status, body: huge.json() }).toEqual({ status: 413, body: rpcError(-32000, `Payload Too Large: Request body must not exceed ${LIMITS.httpBodyBytes} bytes`) });

    const put = await fetch(`${server.url}/mcp`, { method: "PUT", headers: JSON_HEADERS, body: "{}" });
    expect({ status: put.status, allow: put.headers.get("allow"), body: await put.json() }).toEqual({ status: 405, allow: "GET, POST, DELETE", body: rpcError(-32000, "Method not allowed.") });

    const get = await fetch(`${server.url}/mcp`, { headers: { accept: "text/event-stream" } });
    expect({ status: get.status, body: await get.json() }).toEqual({ status: 400, body: rpcError(-32000, "Bad Request: Mcp-Session-Id header is required") });
    expect(await pendingOnHost(server.url)).toEqual([]);
  });

  it("answers an unknown method and an unknown tool with JSON-RPC errors and asks nothing", async () => {
    const server = await startHost();
    const { sessionId } = await mcpClient(server.url);
    const method = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 5, method: "resources/list" }), { "mcp-session-id": sessionId });
    expect(sseMessage(method.text)).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32601, message: "Method not found" } });
    const tool = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "rm_rf", arguments: {} } }), { "mcp-session-id": sessionId });
    expect(sseMessage(tool.text)).toEqual({ jsonrpc: "2.0", id: 6, error: { code: -32602, message: "Unknown tool: rm_rf" } });
    const wait = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "ask_user_question_wait", arguments: { ticket: "t" } } }), { "mcp-session-id": sessionId });
    expect(sseMessage(wait.text)).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Unknown tool: ask_user_question_wait" } });
    expect(await pendingOnHost(server.url)).toEqual([]);
    expect(((await api(server.url, "/api/sessions")).body as { sessions: unknown[] }).sessions).toEqual([]);
  });

  it("answers a tools/call with malformed params -32602 with its id, before the SDK sees it, and asks nothing", async () => {
    const server = await startHost();
    const { sessionId } = await mcpClient(server.url);
    const message = "Invalid params: tools/call takes params.name, a string, and params.arguments, an object when given";
    const bodies = [
      { id: 11, params: { name: "ask_user_question", arguments: null } },
      { id: 12, params: { name: "ask_user_question", arguments: [] } },
      { id: 13, params: { name: "ask_user_question", arguments: "{}" } },
      { id: "fourteen", params: { arguments: ASK } },
      { id: 15, params: { name: 42, arguments: ASK } },
      { id: 16, params: null },
      { id: 17 },
    ];
    for (const { id, ...rest } of bodies) {
      const refused = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", ...rest }), { "mcp-session-id": sessionId });
      expect({ status: refused.status, body: refused.json() }).toEqual({ status: 400, body: { jsonrpc: "2.0", error: { code: -32602, message }, id } });
    }
    const batch = await post(server.url, JSON.stringify([{ jsonrpc: "2.0", id: 18, method: "tools/list" }, { jsonrpc: "2.0", id: 19, method: "tools/call", params: { name: "ask_user_question", arguments: null } }]), { "mcp-session-id": sessionId });
    expect({ status: batch.status, body: batch.json() }).toEqual({ status: 400, body: rpcError(-32602, message) });
    expect(await pendingOnHost(server.url)).toEqual([]);
    expect(((await api(server.url, "/api/sessions")).body as { sessions: unknown[] }).sessions).toEqual([]);
  });

  it("refuses a request whose id is in use by one in flight, so neither's answer or cancel reaches the other", async () => {
    const server = await startHost();
    const { sessionId } = await mcpClient(server.url);
    const socket = await door.socket(server.url);
    const headers = { ...JSON_HEADERS, "mcp-session-id": sessionId };
    const call = (id: string, question: string, signal?: AbortSignal) =>
      fetch(`${server.url}/mcp`, { method: "POST", headers, signal, body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "ask_user_question", arguments: { questions: [{ id: "q", question }] } } }) });
    const first = new AbortController();
    const firstCall = call("dup", "First?", first.signal).then((response) => response.text()).catch(() => "aborted");
    const asked = await nextQuestion(socket);
    expect(asked.questions[0]!.question).toBe("First?");

    const message = "Invalid Request: the id dup is already in use by a request in flight in this MCP session; give each request an id of its own";
    const second = await call("dup", "Second?");
    expect({ status: second.status, body: await second.json() }).toEqual({ status: 400, body: rpcError(-32600, message) });
    const twice = await post(server.url, JSON.stringify([1, 2].map(() => ({ jsonrpc: "2.0", id: "twice", method: "tools/list" }))), { "mcp-session-id": sessionId });
    expect({ status: twice.status, body: twice.json() }).toEqual({ status: 400, body: rpcError(-32600, message.replace("dup", "twice")) });
    expect((await pendingOnHost(server.url)).map((frame) => frame.rpcId)).toEqual([asked.rpcId]);

    // The first call's stream closes: its own question is withdrawn, and once its call has ended (a moment later: the
    // SDK would send that call's result to whichever request holds the id) the id is free again.
    first.abort();
    expect(await firstCall).toBe("aborted");
    expect((await resolvedFrame(socket, asked.rpcId)).outcome).toBe("aborted");
    const from = socket.frames.length;
    let again: Response | null = null;
    await expect
      .poll(async () => {
        const response = await call("dup", "Again?");
        if (response.status !== 400) return (again = response).status;
        expect(await response.json()).toEqual(rpcError(-32600, message));
        return 400;
      })
      .toBe(200);
    const retried = await nextQuestion(socket, from);
    expect(retried.questions[0]!.question).toBe("Again?");
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: retried.rpcId, sessionId: retried.sessionId, answers: [{ id: "q", selected: [], custom: "yes" }] } });
    expect(sseMessage(await again!.text())).toEqual({ jsonrpc: "2.0", id: "dup", result: { content: [{ type: "text", text: '{"answers":[{"id":"q","selected":[],"custom":"yes"}]}' }] } });
    expect(await pendingOnHost(server.url)).toEqual([]);
  });

  it("refuses a foreign Origin and a foreign Host with 403 and the SDK's error body", async () => {
    const server = await startHost();
    const origin = await post(server.url, JSON.stringify(INITIALIZE), { origin: "https://evil.example" });
    expect({ status: origin.status, body: origin.json() }).toEqual({ status: 403, body: rpcError(-32000, "cross-origin requests are refused") });
    const site = await post(server.url, JSON.stringify(INITIALIZE), { "sec-fetch-site": "cross-site" });
    expect({ status: site.status, body: site.json() }).toEqual({ status: 403, body: rpcError(-32000, "cross-site requests are refused") });
    const host = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const request = httpRequest(`${server.url}/mcp`, { method: "POST", headers: { ...JSON_HEADERS, host: "rebound.example:8787" } }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      });
      request.on("error", reject);
      request.end(JSON.stringify(INITIALIZE));
    });
    expect(host).toEqual({ status: 403, body: rpcError(-32000, "the Host header is not a loopback name or an allowed host") });
  });

  it("in token mode refuses a missing or wrong bearer token with 401, even with a live session id", async () => {
    const server = await startHost({ token: TOKEN });
    const elsewhere = await api(server.url, "/api/health");
    const none = await post(server.url, JSON.stringify(INITIALIZE));
    expect(elsewhere.status).toBe(401);
    expect({ status: none.status, body: none.json() }).toEqual({ status: 401, body: rpcError(-32000, (elsewhere.body as { error: { message: string } }).error.message) });

    const { client, sessionId } = await mcpClient(server.url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const wrong = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask_user_question", arguments: ASK } }), {
      "mcp-session-id": sessionId,
      authorization: "Bearer someone-elses-token-000",
    });
    const wrongElsewhere = await api(server.url, "/api/health", { headers: { authorization: "Bearer someone-elses-token-000" } });
    expect({ status: wrong.status, body: wrong.json() }).toEqual({ status: 401, body: rpcError(-32000, (wrongElsewhere.body as { error: { message: string } }).error.message) });
    expect(await pendingOnHost(server.url, { Authorization: `Bearer ${TOKEN}` })).toEqual([]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["ask_user_question", "present_plan"]);
    // A session is its opener's: the same token sent as another header (the scheme in other case) is another client.
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const other = await post(server.url, list, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18", authorization: `bearer ${TOKEN}` });
    expect({ status: other.status, body: other.json() }).toEqual({ status: 404, body: rpcError(-32001, "Session not found") });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["ask_user_question", "present_plan"]);
  });

  it("bounds calls per MCP session: one over the limit is a JSON-RPC error and leaves the pending table as it was", async () => {
    const server = await startHost({ mcp: { maxCallsPerSession: 2 } });
    const { client, sessionId } = await mcpClient(server.url);
    const socket = await door.socket(server.url);
    const calls = [client.callTool({ name: "ask_user_question", arguments: ASK }), client.callTool({ name: "ask_user_question", arguments: ASK })];
    await expect.poll(() => socket.frames.filter((frame) => frame.type === "question/requested").length).toBe(2);
    const over = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "ask_user_question", arguments: ASK } }), { "mcp-session-id": sessionId });
    expect(sseMessage(over.text)).toEqual({ jsonrpc: "2.0", id: 99, error: { code: -32600, message: "this MCP session already has 2 calls in flight or waiting; wait for one to finish" } });
    const pending = await pendingOnHost(server.url);
    expect(pending).toHaveLength(2);
    await api(server.url, `/api/sessions/${pending[0]!.sessionId}/abort`, { method: "POST" });
    expect((await Promise.all(calls)).map((result) => result.isError)).toEqual([true, true]);
  });

  it("bounds MCP sessions: an initialize over the limit gets 503", async () => {
    const server = await startHost({ mcp: { maxSessions: 1 } });
    await mcpClient(server.url);
    const second = await post(server.url, JSON.stringify(INITIALIZE));
    expect({ status: second.status, body: second.json() }).toEqual({
      status: 503,
      body: rpcError(-32000, "Parley already holds 1 MCP sessions; end one with DELETE /mcp or let idle ones expire"),
    });
  });

  it("carries 1,000 concurrent calls from 20 sessions: every one is answered or aborted and nothing stays pending", { timeout: 240_000 }, async () => {
    const server = await startHost({ rateLimits: false });
    const socket = await door.socket(server.url);
    const agents = await Promise.all(Array.from({ length: 20 }, () => mcpClient(server.url)));
    // The SDK gives up on a call after 60 s by default; on a loaded machine the last of 1,000 may take longer to be asked and answered.
    const calls = agents.flatMap(({ client }) =>
      Array.from({ length: 50 }, (_, index) => client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: `q${index}`, question: `Question ${index}?`, options: [{ label: "Yes" }, { label: "No" }] }] } }, undefined, { timeout: 200_000 })),
    );
    await expect.poll(() => socket.frames.filter((frame) => frame.type === "question/requested").length, { timeout: 120_000, interval: 100 }).toBe(1000);
    const frames = socket.frames.filter((frame): frame is QuestionRequestedFrame => frame.type === "question/requested");
    const bySession = new Map<string, QuestionRequestedFrame[]>();
    for (const frame of frames) bySession.set(frame.sessionId, [...(bySession.get(frame.sessionId) ?? []), frame]);
    expect(bySession.size).toBe(20);
    const sessionIds = [...bySession.keys()];
    const answered = sessionIds.slice(0, 10).flatMap((id) => bySession.get(id)!);
    for (let index = 0; index < answered.length; index += 50) {
      await Promise.all(
        answered.slice(index, index + 50).map((frame) =>
          api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: frame.questions[0]!.id, selected: ["Yes"] }] } }),
        ),
      );
    }
    await Promise.all(sessionIds.slice(10).map((id) => api(server.url, `/api/sessions/${id}/abort`, { method: "POST" })));
    const results = await Promise.all(calls);
    const texts = results.map((result) => (result.content as { text: string }[])[0]!.text);
    expect(texts.filter((text) => text.endsWith(':["Yes"]}]}'))).toHaveLength(500);
    expect(texts.filter((text) => text.endsWith('{"name":"UserInteractionError","code":"ASK_ABORTED"}'))).toHaveLength(500);
    expect(await pendingOnHost(server.url)).toEqual([]);
  });
});

describe("an answer the host accepted reaches the outside agent though storage fails after it", { timeout: 60_000 }, () => {
  it("[storage-errors] the call's end and the chat's stamp fail to write: the agent still gets the answer, and the row is written once the disk is back", async () => {
    const faulty = createFaultyStore(openStore(":memory:"));
    const { server, socket } = await door.start({ store: faulty.store });
    const { client } = await mcpClient(server.url);
    const call = client.callTool({ name: "ask_user_question", arguments: ASK });
    const asked = await nextQuestion(socket);
    // The answer's own write (write 0) lands; everything after it fails.
    faulty.failFrom(1, "STORAGE_FULL");
    const answers = [{ id: "ok", selected: ["Yes"] }];
    expect((await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId: asked.sessionId, answers } })).body).toEqual({ accepted: true });
    const result = await call;
    expect([result.isError ?? false, result.content]).toEqual([false, [{ type: "text", text: JSON.stringify({ answers }) }]]);
    expect(faulty.failures).toBeGreaterThan(0);
    faulty.heal();
    const toolRow = async () => (await faulty.store.listMessages(asked.sessionId)).find((row) => row.role === "tool")?.tool;
    await expect.poll(async () => [(await toolRow())?.status, (await toolRow())?.result], { timeout: 20_000 }).toEqual(["ok", JSON.stringify({ answers })]);
  });
});

