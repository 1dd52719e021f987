import { spawn } from "node:child_process";
import { connect as tcpConnect, createServer, type AddressInfo, type Socket } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema, type CallToolResult, type JSONRPCMessage, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { LIMITS, type QuestionRequestedFrame, type Session } from "../protocol/schemas";
import type { RunningServer } from "../host/server";
import { api, connect, startTestServer, type FrameClient } from "../testing/host/harness";
import { removeDataDir, startHostProcess, type HostProcess } from "../testing/host/host-process";
import { toolErrorCode } from "../host/tools/registry";
import { listedBuiltInTools } from "../host/tools/built-in";
import { MAX_ARGUMENT_DEPTH as HOST_MAX_ARGUMENT_DEPTH } from "../protocol/arguments";
import { MAX_ARGUMENT_DEPTH, nestedDeeperThan, startStdioBridge, type Bridge } from "./stdio-bridge";

const BIN = path.resolve("bin/parley.mjs");
const servers: RunningServer[] = [];
const sockets: FrameClient[] = [];
const clients: Client[] = [];
const bridges: Bridge[] = [];
const hosts: HostProcess[] = [];
const proxies: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(bridges.splice(0).map((bridge) => bridge.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  const dataDirs = new Set(hosts.map((host) => host.dataDir));
  await Promise.all(hosts.splice(0).map((host) => host.kill("SIGKILL")));
  for (const dataDir of dataDirs) removeDataDir(dataDir);
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

/** An MCP client transport over a pair of streams: the in-process bridge's stdin and stdout. */
class StreamPairTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly toBridge: PassThrough,
    private readonly fromBridge: PassThrough,
  ) {}
  start(): Promise<void> {
    this.fromBridge.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
    return Promise.resolve();
  }
  send(message: JSONRPCMessage): Promise<void> {
    this.toBridge.write(serializeMessage(message));
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.toBridge.end();
    this.onclose?.();
    return Promise.resolve();
  }
}

/** The bridge in this process, for what the command has no setting for (how long a lost host is waited for). */
async function startBridgeHere(url: string, hostReturnMs: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const reports: string[] = [];
  const bridge = await startStdioBridge({ url, stdin, stdout, hostReturnMs, report: (line) => void reports.push(line) });
  bridges.push(bridge);
  const client = new Client({ name: "claude-desktop", version: "1.0.0" });
  await client.connect(new StreamPairTransport(stdin, stdout));
  clients.push(client);
  return { client, reports };
}

/**
 * A TCP proxy to the host at `port` that cuts the connection carrying the first `tools/call` once the host starts its reply:
 * before the reply reaches the bridge, or just after its first bytes did. The host stays up.
 */
async function startCuttingProxy(port: number, when: "before-reply" | "mid-reply") {
  let armed = true;
  const open = new Set<Socket>();
  const proxy = createServer((client) => {
    const host = tcpConnect({ host: "127.0.0.1", port });
    open.add(client).add(host);
    let cutting = false;
    const drop = () => {
      client.destroy();
      host.destroy();
    };
    client.on("error", drop).on("close", drop);
    host.on("error", drop).on("close", () => {
      if (!client.writableEnded) client.destroy();
    });
    client.on("data", (chunk: Buffer) => {
      if (armed && chunk.includes('"tools/call"')) {
        armed = false;
        cutting = true;
      }
      host.write(chunk);
    });
    host.on("data", (chunk: Buffer) => {
      if (!cutting) return void client.write(chunk);
      if (when === "mid-reply") client.end(chunk);
      else client.destroy();
      host.destroy();
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const handle = {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
  proxies.push(handle);
  return handle;
}

/** The real bridge driven with raw JSON-RPC lines, for messages no SDK client would send. */
function launchRawBridge(env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, "mcp"], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const replies = new Map<number, unknown>();
  const waiting = new Map<number, (reply: unknown) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as { id?: unknown };
    if (typeof message.id !== "number") return;
    replies.set(message.id, message);
    waiting.get(message.id)?.(message);
  });
  const bridge = {
    send(line: string) {
      child.stdin.write(`${line}\n`);
    },
    reply(id: number): Promise<unknown> {
      const arrived = new Promise((resolve) => (replies.has(id) ? resolve(replies.get(id)) : waiting.set(id, resolve)));
      return within(20_000, arrived, `the reply to request ${id}`);
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
  bridges.push(bridge);
  return bridge;
}

/** `promise`, or a rejection naming `what` once `ms` have passed. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const textOf = (result: unknown) => (result as CallToolResult).content.map((item) => (item.type === "text" ? item.text : "")).join("");
const TIME_ZONE = { questions: [{ id: "tz", question: "Time zone?", options: [{ label: "UTC" }, { label: "CET" }] }] };

function builtInTools() {
  return listedBuiltInTools().list().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters }));
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

  it("tells the client to list the tools again once it reaches a host, which lists the wait tool the bridge alone did not", async () => {
    const gone = await startTestServer();
    const port = gone.port;
    await gone.close();
    const { client, errors } = await launchBridge({ PARLEY_URL: gone.url });
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(builtInTools().map((tool) => tool.name));
    servers.push(await startTestServer({ port, mcp: { waitSeconds: 50 } }));
    // The next call reaches the host; the client is told its list changed, and the list it gets now has the wait tool.
    expect((await client.callTool({ name: "ask_user_question", arguments: { questions: [] } })).isError).toBe(true);
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...builtInTools().map((tool) => tool.name), "ask_user_question_wait"]);
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

  it.each(["SIGTERM", "SIGKILL"] as const)(
    "ends a call left waiting when the host is stopped (%s) and started again with ASK_ABORTED, and the next call reaches the new host",
    { timeout: 150_000 },
    async (signal) => {
      const first = await startHostProcess();
      hosts.push(first);
      const socket = await connect(first.url);
      sockets.push(socket);
      const { client, errors } = await launchBridge({ PARLEY_URL: first.url });
      const waiting = client.callTool({ name: "ask_user_question", arguments: TIME_ZONE }, undefined, { timeout: 300_000 });
      await socket.waitFor((frame) => frame.type === "question/requested");
      await first.kill(signal);
      const second = await startHostProcess({ port: first.port, dataDir: first.dataDir });
      hosts.push(second);

      // The bound is 10 s after the host is back; twice that leaves room for a slow machine.
      const lost = await within(20_000, waiting, "the waiting call's end after the host came back");
      expect(lost.isError).toBe(true);
      expect(toolErrorCode(textOf(lost))).toBe("ASK_ABORTED");
      expect(textOf(lost)).not.toMatch(/not reachable/);

      const again = await connect(second.url);
      sockets.push(again);
      const next = client.callTool({ name: "ask_user_question", arguments: TIME_ZONE });
      const frame = await again.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested");
      await api(second.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "tz", selected: ["CET"] }] } });
      expect(await next).toEqual({ content: [{ type: "text", text: '{"answers":[{"id":"tz","selected":["CET"]}]}' }] });
      expect(errors).toEqual([]);
    },
  );

  it.each(["before-reply", "mid-reply"] as const)("ends a call whose connection is cut %s with ASK_ABORTED while the host stays up, and keeps its session for the next call", async (when) => {
    const server = await startTestServer();
    servers.push(server);
    const proxy = await startCuttingProxy(server.port, when);
    const socket = await connect(server.url);
    sockets.push(socket);
    const { client, errors } = await launchBridge({ PARLEY_URL: proxy.url });
    const lost = await client.callTool({ name: "ask_user_question", arguments: TIME_ZONE });
    expect(lost.isError).toBe(true);
    expect(toolErrorCode(textOf(lost))).toBe("ASK_ABORTED");

    const next = client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "city", question: "City?" }] } });
    const frame = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested" && item.questions[0]!.id === "city");
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "city", selected: [], custom: "Oslo" }] } });
    expect(await next).toEqual({ content: [{ type: "text", text: '{"answers":[{"id":"city","selected":[],"custom":"Oslo"}]}' }] });
    const sessions = (await api(server.url, "/api/sessions")).body as { sessions: Session[] };
    expect(sessions.sessions.map((session) => session.id)).toEqual([frame.sessionId]);
    expect(errors).toEqual([]);
  });

  it("reports a call whose host went away and stays away as not reachable once it was given its time", async () => {
    const host = await startHostProcess();
    hosts.push(host);
    const socket = await connect(host.url);
    sockets.push(socket);
    const { client } = await startBridgeHere(host.url, 500);
    const waiting = client.callTool({ name: "ask_user_question", arguments: TIME_ZONE }, undefined, { timeout: 300_000 });
    await socket.waitFor((frame) => frame.type === "question/requested");
    await host.kill("SIGKILL");
    const result = await waiting;
    expect(result.isError).toBe(true);
    expect(toolErrorCode(textOf(result))).toBe("HOST_UNREACHABLE");
    expect(textOf(result)).toMatch(/^Error: Parley is not reachable at http:\/\/127\.0\.0\.1:\d+ \(.+\)\. Start it in the Parley repository with `npm start`/);
  });

  it("answers arguments nested 200,000 deep with an invalid-arguments error that says so, the host being reachable", async () => {
    const server = await startTestServer();
    servers.push(server);
    const bridge = launchRawBridge({ PARLEY_URL: server.url });
    bridge.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }));
    await bridge.reply(1);
    bridge.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    const depth = 200_000;
    bridge.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_user_question","arguments":{"questions":${"[".repeat(depth)}${"]".repeat(depth)}}}}`);
    expect(await bridge.reply(2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: 'Error: invalid arguments: arguments are nested deeper than 64 levels\n{"name":"ToolError","code":"INVALID_ARGS"}' }], isError: true },
    });
  });

  it("answers a call larger than the host takes with an invalid-arguments error, not as an unreachable host", async () => {
    const server = await startTestServer();
    servers.push(server);
    const { client } = await launchBridge({ PARLEY_URL: server.url });
    const result = await client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "a", question: "x".repeat(LIMITS.httpBodyBytes) }] } });
    expect(result).toEqual({
      content: [{ type: "text", text: `Error: invalid arguments: the call is larger than the Parley host accepts (${LIMITS.httpBodyBytes} bytes of JSON)\n{"name":"ToolError","code":"INVALID_ARGS"}` }],
      isError: true,
    });
    expect(await client.callTool({ name: "ask_user_question", arguments: { questions: [] } })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("INVALID_ARGS") as unknown }] });
  });

  it("counts nesting without recursion, the outermost object as level 1, to the host's bound", () => {
    expect(MAX_ARGUMENT_DEPTH).toBe(HOST_MAX_ARGUMENT_DEPTH);
    const nest = (levels: number): unknown => {
      let value: unknown = {};
      for (let level = 1; level < levels; level++) value = level % 2 === 0 ? { a: value } : [value];
      return value;
    };
    expect(nestedDeeperThan(nest(64), 64)).toBe(false);
    expect(nestedDeeperThan(nest(65), 64)).toBe(true);
    expect(nestedDeeperThan(nest(300_000), 64)).toBe(true);
    expect(nestedDeeperThan({ a: "x", b: [1, 2, null] }, 2)).toBe(false);
  });
});
