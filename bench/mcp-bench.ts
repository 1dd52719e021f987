import { spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { WebSocket } from "ws";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer, type RunningServer } from "../src/host/server";
import { median, progress, quantile } from "./stats";

const ROUNDS = 5;
const PER_ROUND = 300;
const IDLE_SESSIONS = 1000;

const ARGS = {
  questions: [
    { id: "pkg", header: "Tooling", question: "Which package manager should the project use?", options: [{ label: "pnpm (Recommended)", description: "Fast, strict, disk-efficient" }, { label: "npm" }, { label: "yarn" }] },
    { id: "checks", question: "Which checks should run in CI?", multi_select: true, options: [{ label: "lint" }, { label: "typecheck" }, { label: "unit tests" }, { label: "e2e" }] },
    { id: "name", question: "What should the package be called?" },
  ],
};
const QUESTIONS = ARGS.questions.map(({ multi_select, ...item }) => (multi_select ? { ...item, multiSelect: true } : item));
const ANSWERS = [
  { id: "pkg", selected: ["pnpm (Recommended)"] },
  { id: "checks", selected: ["lint", "unit tests"] },
  { id: "name", selected: [], custom: "parley" },
];
const EXPECTED_TEXT = JSON.stringify({ answers: ANSWERS });
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "idle-agent", version: "1" } } });
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Child mode: opens `count` MCP sessions (initialize + initialized) against `url` and keeps them idle until stdin ends. */
async function idleClients(url: string, count: number) {
  async function openOne() {
    const response = await fetch(`${url}/mcp`, { method: "POST", headers: JSON_HEADERS, body: INITIALIZE });
    await response.text();
    const sessionId = response.headers.get("mcp-session-id");
    if (response.status !== 200 || !sessionId) throw new Error(`initialize answered ${response.status}`);
    const initialized = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    await initialized.text();
  }
  for (let index = 0; index < count; index += 50) await Promise.all(Array.from({ length: Math.min(50, count - index) }, openOne));
  process.stdout.write("ready\n");
  process.stdin.resume();
  process.stdin.on("end", () => process.exit(0));
}

/** Child mode: an MCP agent in its own process, as real agents are; on each line of stdin it makes `count` calls one after another and reports their times. */
async function agent(url: string, count: number) {
  const client = new Client({ name: "bench-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", url)));
  process.stdout.write("ready\n");
  let buffered = "";
  process.stdin.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    while (buffered.includes("\n")) {
      buffered = buffered.slice(buffered.indexOf("\n") + 1);
      void (async () => {
        const samples: number[] = [];
        const started = performance.now();
        for (let index = 0; index < count; index++) {
          const began = performance.now();
          const result = await client.callTool({ name: "ask_user_question", arguments: ARGS });
          if ((result.content as { text: string }[])[0]?.text !== EXPECTED_TEXT) throw new Error(`unexpected MCP result ${JSON.stringify(result)}`);
          samples.push(performance.now() - began);
        }
        process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, samples })}\n`);
      })();
    }
  });
  process.stdin.on("end", () => {
    void client.close().then(() => process.exit(0));
  });
}

/** Runs the agent child and answers every question it asks through `/api/respond`, as the human's tab would. */
async function startAgent(host: RunningServer, requests: Awaited<ReturnType<typeof openRequests>>) {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "mcp-bench.ts"), "agent", host.url, String(PER_ROUND)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    while (buffered.includes("\n")) {
      const line = buffered.slice(0, buffered.indexOf("\n"));
      buffered = buffered.slice(buffered.indexOf("\n") + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const nextLine = () => new Promise<string>((resolve) => (lines.length > 0 ? resolve(lines.shift()!) : waiting.push(resolve)));
  if ((await nextLine()) !== "ready") throw new Error("the agent did not start");
  return {
    async round(samples: number[]): Promise<number> {
      const answered = (async () => {
        for (let index = 0; index < PER_ROUND; index++) {
          const frame = await requests.next();
          await respond(host.url, frame.rpcId, frame.sessionId);
        }
      })();
      child.stdin!.write("go\n");
      const report = JSON.parse(await nextLine()) as { ms: number; samples: number[] };
      await answered;
      samples.push(...report.samples);
      return PER_ROUND / (report.ms / 1000);
    },
    async stop() {
      child.stdin!.end();
      await new Promise<void>((resolve) => child.once("exit", () => resolve()));
    },
  };
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapBytes(): number {
  for (let round = 0; round < 4; round++) gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

/** `question/requested` frames from one `/api/mux` socket, handed to whoever waits for the next one. */
async function openRequests(url: string): Promise<{ next(): Promise<{ rpcId: string; sessionId: string }>; close(): void }> {
  const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/mux`);
  const waiting: ((frame: { rpcId: string; sessionId: string }) => void)[] = [];
  const synced = new Promise<void>((resolve, reject) => {
    socket.on("message", (data: Buffer) => {
      const frame = JSON.parse(data.toString("utf8")) as { type: string; rpcId: string; sessionId: string };
      if (frame.type === "synced") resolve();
      if (frame.type === "question/requested") waiting.shift()?.(frame);
    });
    socket.once("error", reject);
  });
  await synced;
  return { next: () => new Promise((resolve) => waiting.push(resolve)), close: () => socket.terminate() };
}

async function respond(url: string, rpcId: string, sessionId: string) {
  const response = await fetch(`${url}/api/respond`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "answer", rpcId, sessionId, answers: ANSWERS }) });
  const receipt = (await response.json()) as { accepted: boolean };
  if (!receipt.accepted) throw new Error(`the host rejected a valid answer: ${JSON.stringify(receipt)}`);
}

async function seamRound(host: RunningServer, sessionId: string, requests: Awaited<ReturnType<typeof openRequests>>, samples: number[]): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < PER_ROUND; index++) {
    const began = performance.now();
    const requested = requests.next();
    const settled = host.userInteraction.ask({ questions: QUESTIONS, sessionId });
    const frame = await requested;
    await respond(host.url, frame.rpcId, frame.sessionId);
    await settled;
    samples.push(performance.now() - began);
  }
  return PER_ROUND / ((performance.now() - started) / 1000);
}

async function mcpRound(host: RunningServer, client: Client, requests: Awaited<ReturnType<typeof openRequests>>, samples: number[]): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < PER_ROUND; index++) {
    const began = performance.now();
    const requested = requests.next();
    const call = client.callTool({ name: "ask_user_question", arguments: ARGS });
    const frame = await requested;
    await respond(host.url, frame.rpcId, frame.sessionId);
    const result = await call;
    if ((result.content as { text: string }[])[0]?.text !== EXPECTED_TEXT) throw new Error(`unexpected MCP result ${JSON.stringify(result)}`);
    samples.push(performance.now() - began);
  }
  return PER_ROUND / ((performance.now() - started) / 1000);
}

/**
 * The SDK's own floor: a bare McpServer on node:http with the same transport (Streamable HTTP, a session per client) and
 * an ask_user_question tool that answers at once with the text Parley's would return.
 */
async function startSdkFloor(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const readJson = (request: IncomingMessage) =>
    new Promise<unknown>((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => resolve(chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      request.on("error", reject);
    });
  const server = createServer((request, response) => {
    void (async () => {
      const body = request.method === "POST" ? await readJson(request) : undefined;
      const sessionId = request.headers["mcp-session-id"];
      let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
      if (!transport) {
        const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void transports.set(id, created) });
        const mcp = new McpServer({ name: "sdk-floor", version: "1.0.0" });
        mcp.registerTool("ask_user_question", { description: "answers at once" }, () => ({ content: [{ type: "text", text: EXPECTED_TEXT }] }));
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const transport of transports.values()) await transport.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function sdkFloorRound(client: Client, samples: number[]): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < PER_ROUND; index++) {
    const began = performance.now();
    const result = await client.callTool({ name: "ask_user_question", arguments: ARGS });
    if ((result.content as { text: string }[])[0]?.text !== EXPECTED_TEXT) throw new Error(`unexpected MCP result ${JSON.stringify(result)}`);
    samples.push(performance.now() - began);
  }
  return PER_ROUND / ((performance.now() - started) / 1000);
}

async function idleSessionBytes(host: RunningServer): Promise<number> {
  const before = heapBytes();
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "mcp-bench.ts"), "idle-clients", host.url, String(IDLE_SESSIONS)], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the idle MCP clients exited with ${code}`)));
  });
  const after = heapBytes();
  child.stdin!.end();
  await new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return (after - before) / IDLE_SESSIONS;
}

async function main() {
  if (!gc) throw new Error("run with node --expose-gc");
  const host = await startServer({ host: "127.0.0.1", port: 0, dataDir: ":memory:", model: createScriptedModel(), staticDir: "/nonexistent-parley-dist", rateLimits: false });
  try {
    const requests = await openRequests(host.url);
    const seamSession = ((await (await fetch(`${host.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { session: { id: string } }).session.id;
    const client = new Client({ name: "bench-agent-in-process", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", host.url)));
    const floor = await startSdkFloor();
    const floorClient = new Client({ name: "bench-agent-sdk-floor", version: "1.0.0" });
    await floorClient.connect(new StreamableHTTPClientTransport(new URL("/mcp", floor.url)));
    const floorRatios: number[] = [];
    const bestRatios: number[] = [];
    const floorSamples: number[] = [];
    const ratios: number[] = [];
    const inProcessRatios: number[] = [];
    const mcpSamples: number[] = [];
    const inProcessSamples: number[] = [];
    const seamSamples: number[] = [];
    const rates = { mcp: [] as number[], seam: [] as number[], inProcess: [] as number[] };
    const agentProcess = await startAgent(host, requests);
    for (let round = 0; round < ROUNDS; round++) {
      progress(`mcp: round trip round ${round + 1} of ${ROUNDS} (${PER_ROUND} answered calls through the seam, /mcp from this process, a bare SDK server, /mcp from an agent process)`);
      const seam = await seamRound(host, seamSession, requests, seamSamples);
      const inProcess = await mcpRound(host, client, requests, inProcessSamples);
      const sdkFloor = await sdkFloorRound(floorClient, floorSamples);
      // What /mcp adds to the seam (the transport, the session, the tool's own work), against what one call costs the bare SDK.
      const addedMs = 1000 / inProcess - 1000 / seam;
      floorRatios.push(1000 / sdkFloor / addedMs);
      // The best /mcp could do against the seam if Parley added nothing to the SDK's own call: seam / (seam + one bare SDK call).
      bestRatios.push(1000 / seam / (1000 / seam + 1000 / sdkFloor));
      const mcp = await agentProcess.round(mcpSamples);
      rates.seam.push(seam);
      rates.inProcess.push(inProcess);
      rates.mcp.push(mcp);
      ratios.push(mcp / seam);
      inProcessRatios.push(inProcess / seam);
    }
    await agentProcess.stop();
    await client.close();
    await floorClient.close();
    await floor.close();
    requests.close();
    progress(`mcp: heap per idle MCP session (${IDLE_SESSIONS} sessions opened from a separate process)`);
    const idleBytes = await idleSessionBytes(host);
    const output = {
      metrics: {
        "mcp.roundtrip.ratio": Number(median(inProcessRatios).toFixed(2)),
        "mcp.sdk_floor.ratio": Number(median(floorRatios).toFixed(2)),
        "mcp.roundtrip.p50_ms": Number(median(inProcessSamples).toFixed(2)),
        "mcp.roundtrip.p99_ms": Number(quantile(inProcessSamples, 0.99).toFixed(2)),
        "mcp.sessions.bytes_per_idle_session": Math.round(idleBytes),
      },
      notes: {
        "mcp.roundtrip.calls_per_second": Number(median(rates.inProcess).toFixed(0)),
        "mcp.roundtrip.seam_per_second": Number(median(rates.seam).toFixed(0)),
        "mcp.roundtrip.seam_p50_ms": Number(median(seamSamples).toFixed(2)),
        "mcp.sdk_floor.p50_ms": Number(median(floorSamples).toFixed(2)),
        "mcp.roundtrip.floor_ratio": Number(median(bestRatios).toFixed(2)),
        "mcp.roundtrip.floor_ratio_spread": `${Math.min(...bestRatios).toFixed(2)}–${Math.max(...bestRatios).toFixed(2)} over ${ROUNDS} rounds: the round trip's ratio if /mcp cost only the seam and one bare SDK call`,
        "mcp.roundtrip.ratio_agent_process": Number(median(ratios).toFixed(2)),
        "mcp.roundtrip.ratio_spread": `${Math.min(...inProcessRatios).toFixed(2)}–${Math.max(...inProcessRatios).toFixed(2)} over ${ROUNDS} rounds`,
        "mcp.sdk_floor.ratio_spread": `${Math.min(...floorRatios).toFixed(2)}–${Math.max(...floorRatios).toFixed(2)} over ${ROUNDS} rounds`,
        "mcp.roundtrip.agent_process_p50_ms": Number(median(mcpSamples).toFixed(2)),
      },
    };
    process.stdout.write(`${JSON.stringify(output)}\n`);
  } finally {
    await host.close();
  }
}

if (process.argv[2] === "idle-clients") await idleClients(process.argv[3]!, Number(process.argv[4]));
else if (process.argv[2] === "agent") await agent(process.argv[3]!, Number(process.argv[4]));
else await main();
