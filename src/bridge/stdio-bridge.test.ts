import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { QuestionRequestedFrame, Session } from "../protocol/schemas";
import type { RunningServer } from "../host/server";
import { api, connect, startTestServer, type FrameClient } from "../host/testing/harness";
import { createAskUserQuestionTool } from "../host/tools/ask-user-question";
import { createPresentPlanTool } from "../host/tools/present-plan";
import { createToolRegistry } from "../host/tools/registry";
import { createUserInteraction } from "../host/user-interaction";

const BIN = path.resolve("bin/parley.mjs");
const servers: RunningServer[] = [];
const sockets: FrameClient[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The real bridge, `node bin/parley.mjs mcp`, as an MCP client launches it; any stray stdout line would surface as a transport error. */
async function launchBridge(env: Record<string, string>) {
  const errors: Error[] = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: { PATH: process.env.PATH ?? "", ...env }, stderr: "pipe" });
  transport.onerror = (error) => errors.push(error);
  const client = new Client({ name: "claude-desktop", title: "Claude Desktop", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return { client, errors };
}

function builtInTools() {
  const registry = createToolRegistry();
  const seam = createUserInteraction();
  registry.register(createAskUserQuestionTool(seam));
  registry.register(createPresentPlanTool(seam));
  return registry.list().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters }));
}

describe("parley mcp (stdio bridge)", { timeout: 30_000 }, () => {
  it("forwards to the host: same tools, the question in the client's own session, the answer as the result, progress passed on", async () => {
    const server = await startTestServer({ mcp: { progressIntervalMs: 30, now: () => new Date(2026, 4, 1, 8, 0) } });
    servers.push(server);
    const socket = await connect(server.url);
    sockets.push(socket);
    const { client, errors } = await launchBridge({ PARLEY_URL: server.url });
    expect((await client.listTools()).tools).toEqual(builtInTools());

    const progress: Progress[] = [];
    const call = client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "tz", question: "Time zone?", options: [{ label: "UTC" }, { label: "CET" }] }] } }, undefined, {
      onprogress: (item) => void progress.push(item),
    });
    const frame = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested");
    await expect.poll(() => progress.length, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(2);
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "tz", selected: ["CET"] }] } });
    expect(await call).toEqual({ content: [{ type: "text", text: '{"answers":[{"id":"tz","selected":["CET"]}]}' }] });
    expect(progress.slice(0, 2)).toEqual([1, 2].map((value) => ({ progress: value, message: "waiting for the human" })));

    const sessions = (await api(server.url, "/api/sessions")).body as { sessions: Session[] };
    expect(sessions.sessions.map(({ title, agent }) => ({ title, agent }))).toEqual([{ title: "Claude Desktop · 08:00", agent: { kind: "mcp-client", name: "Claude Desktop" } }]);

    const controller = new AbortController();
    const from = socket.frames.length;
    const cancelled = client.callTool({ name: "present_plan", arguments: { plan: "1. Go" } }, undefined, { signal: controller.signal });
    const second = await socket.waitFor<QuestionRequestedFrame>((item, index) => index >= from && item.type === "question/requested");
    controller.abort("stop");
    await expect(cancelled).rejects.toThrow("stop");
    expect(await socket.waitFor((item) => item.type === "question/resolved" && item.rpcId === second.rpcId)).toEqual({
      type: "question/resolved",
      rpcId: second.rpcId,
      sessionId: second.sessionId,
      outcome: "aborted",
    });
    expect(errors).toEqual([]);
  });

  it("passes PARLEY_TOKEN on as a bearer token", async () => {
    const server = await startTestServer({ token: "bridge-secret-0123456789" });
    servers.push(server);
    const { client } = await launchBridge({ PARLEY_URL: server.url, PARLEY_TOKEN: "bridge-secret-0123456789" });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["ask_user_question", "present_plan"]);
    const result = await client.callTool({ name: "ask_user_question", arguments: { questions: [] } });
    expect(result).toEqual({
      content: [{ type: "text", text: 'Error: invalid arguments: questions: Too small: expected array to have >=1 items\n{"name":"ToolError","code":"INVALID_ARGS"}' }],
      isError: true,
    });
  });

  it("survives the host going away and coming back on the same port, with or without a call in between", async () => {
    const first = await startTestServer();
    const port = first.port;
    const { client, errors } = await launchBridge({ PARLEY_URL: first.url });
    const invalid = { name: "ask_user_question", arguments: { questions: [] } };
    const invalidResult = {
      content: [{ type: "text", text: 'Error: invalid arguments: questions: Too small: expected array to have >=1 items\n{"name":"ToolError","code":"INVALID_ARGS"}' }],
      isError: true,
    };
    expect(await client.callTool(invalid)).toEqual(invalidResult);
    await first.close();
    const down = await client.callTool(invalid);
    expect(down.isError).toBe(true);
    expect((down.content as { text: string }[])[0]!.text).toMatch(/^Error: Parley is not reachable at http:\/\/127\.0\.0\.1:\d+ \(.+\)\. Start it in the Parley repository with `npm start`/);
    const second = await startTestServer({ port });
    expect(await client.callTool(invalid)).toEqual(invalidResult);
    await second.close();
    const third = await startTestServer({ port });
    servers.push(third);
    expect(await client.callTool(invalid)).toEqual(invalidResult);
    expect(errors).toEqual([]);
  });

  it("initializes without a host and answers every call with a tool error that says how to start it", async () => {
    const { client, errors } = await launchBridge({ PARLEY_URL: "http://127.0.0.1:9" });
    expect(client.getServerVersion()).toEqual({ name: "parley", title: "Parley", version: "0.1.0" });
    expect((await client.listTools()).tools).toEqual(builtInTools());
    expect(await client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "a", question: "A?" }] } })).toEqual({
      content: [
        {
          type: "text",
          text: 'Error: Parley is not reachable at http://127.0.0.1:9 (fetch failed: bad port). Start it in the Parley repository with `npm start` (or set PARLEY_URL to where it runs, and PARLEY_TOKEN if it has one), then call this tool again.\n{"name":"BridgeError","code":"HOST_UNREACHABLE"}',
        },
      ],
      isError: true,
    });
    expect(errors).toEqual([]);
  });
});
