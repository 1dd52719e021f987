import { afterEach, describe, expect, it } from "vitest";
import { createFrontDoor, nextQuestion } from "../../testing/host/mcp-front-door";

const door = createFrontDoor({ name: "flood", title: "Flood" });
afterEach(() => door.closeAll());
const { start, mcpClient, pendingOnHost } = door;

const ONE = { questions: [{ id: "q", question: "Which?", options: [{ label: "a" }, { label: "b" }] }] };

describe("/mcp limits shared with the rest of the host", { timeout: 30_000 }, () => {
  it("refuses a question past PARLEY_MAX_PENDING, from any MCP session, with a tool error naming the cap, and asks nothing", async () => {
    const { server, socket } = await start({ maxPending: 2 });
    const first = await mcpClient(server.url);
    const second = await mcpClient(server.url);
    void first.client.callTool({ name: "ask_user_question", arguments: ONE }).catch(() => undefined);
    await nextQuestion(socket);
    void second.client.callTool({ name: "ask_user_question", arguments: ONE }).catch(() => undefined);
    await nextQuestion(socket, socket.frames.findIndex((frame) => frame.type === "question/requested") + 1);
    const refused = await first.client.callTool({ name: "ask_user_question", arguments: ONE });
    expect(refused).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: 'Error: this host already holds 2 pending questions (PARLEY_MAX_PENDING): answer or stop some, then ask again\n{"name":"UserInteractionError","code":"TOO_MANY_PENDING"}',
        },
      ],
    });
    expect((await pendingOnHost(server.url)).length).toBe(2);
  });

  it("counts each new MCP session against the session-creation brake of POST /api/sessions", async () => {
    const { server } = await start({ rateLimits: { sessions: { burst: 2, perSecond: 0.001 } } });
    await mcpClient(server.url);
    await mcpClient(server.url);
    const refused = await fetch(new URL("/mcp", server.url), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "flood", version: "1" } } }),
    });
    expect([refused.status, refused.headers.get("retry-after") !== null, await refused.json()]).toEqual([
      429,
      true,
      { jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.stringMatching(/^too many sessions created from this client; retry in \d+ s$/) } },
    ]);
    const posted = await fetch(new URL("/api/sessions", server.url), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(posted.status).toBe(429);
  });
});
