import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS } from "../playwright.config";
import type { AgentsConfig } from "../src/host/acp/config";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer } from "../src/host/server";
import { progress, quantile, roundRatios, type Spread } from "./stats";

/** Each ratio is the median of this many rounds; a round streams one reply into the app, then one into the bare page. */
const ROUNDS = 5;
const CHUNKS = 5000;
const TOOL_UPDATES = 200;
/** The agent hands over a chunk this often (500 a second): several times faster than a model speaks, so the app has to keep up with a flood. */
const CHUNK_INTERVAL_MS = Number(process.env.BENCH_STREAM_CHUNK_MS ?? 2);
const WARM_UP = { chunks: 500, toolUpdates: 20 };
const STREAM_TIMEOUT_MS = 120_000;
const AGENT_READY_TIMEOUT_MS = 60_000;

/**
 * The bare page: its own /api/mux socket, opened for one session at a time by `__benchListen(sessionId)`, that appends each
 * message/delta's text to its row as a text node and writes each upserted row's text (a tool row's name, title and status).
 * Listening to another session starts from an empty page, as the app starts each round in a newly opened chat.
 */
const BASELINE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bench stream baseline</title></head>
<body>
<h1>Bench stream baseline</h1>
<main id="rows"></main>
<script src="/bench-stream-baseline.js"></script>
</body></html>
`;

const BASELINE_JS = `(() => {
  const root = document.getElementById("rows");
  const rows = new Map();
  const rowFor = (id) => {
    let row = rows.get(id);
    if (!row) {
      row = document.createElement("p");
      rows.set(id, row);
      root.append(row);
    }
    return row;
  };
  const rowText = (message) => {
    if (message.text) return message.text;
    const tool = message.tool;
    if (!tool) return "";
    const title = tool.acp && tool.acp.type === "tool" ? tool.acp.call.title : "";
    return tool.name + " " + title + " " + tool.status;
  };
  let socket = null;
  window.__benchListen = (sessionId) =>
    new Promise((resolve) => {
      if (socket) {
        socket.close();
        socket = null;
      }
      rows.clear();
      root.replaceChildren();
      if (sessionId === null) return resolve();
      socket = new WebSocket("ws://" + location.host + "/api/mux");
      socket.addEventListener("message", (event) => {
        const frame = JSON.parse(event.data);
        if (frame.type === "synced") resolve();
        if (frame.type === "message/delta" && frame.sessionId === sessionId) rowFor(frame.messageId).append(frame.text);
        if (frame.type === "message/upserted" && frame.message.sessionId === sessionId) {
          const row = rowFor(frame.message.id);
          const text = rowText(frame.message);
          if (text !== "" && row.textContent !== text) row.textContent = text;
        }
      });
    });
})();
`;

interface StreamProbe {
  streamPaints: (number | null)[];
  longTasks: number[];
}

const inPage = <T>(target: Page, script: string) => target.evaluate(script) as Promise<T>;

async function api(url: string, route: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${url}${route}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

async function waitIdle(url: string, sessionId: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { json } = await api(url, `/api/sessions/${sessionId}`);
    if ((json as { session: { state: string } }).session.state === "idle") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`session ${sessionId} did not become idle`);
}

async function waitAgentReady(url: string): Promise<void> {
  const deadline = Date.now() + AGENT_READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { json } = await api(url, "/api/agents");
    if ((json as { agents: { state: string }[] }).agents[0]?.state === "ready") return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the bench agent was not ready in ${AGENT_READY_TIMEOUT_MS} ms`);
}

/** A new chat with the bench agent, bound to its agent session by a first `/ready` turn. */
async function newChat(url: string, workspace: string): Promise<string> {
  const created = await api(url, "/api/sessions", { agent: "bench", cwd: workspace, title: "Bench: a streamed reply" });
  if (created.status !== 201) throw new Error(`creating an agent chat failed with ${created.status}: ${JSON.stringify(created.json)}`);
  const sessionId = (created.json as { session: { id: string } }).session.id;
  const posted = await api(url, `/api/sessions/${sessionId}/messages`, { text: "/ready" });
  if (posted.status !== 202) throw new Error(`posting /ready failed with ${posted.status}`);
  await waitIdle(url, sessionId);
  return sessionId;
}

/**
 * Streams one reply into `sessionId` while `target` watches for its chunks; returns each chunk's time from the agent handing
 * it over (its own clock) to the frame after `target` showed it, and the long tasks `target` had meanwhile.
 */
async function streamInto(run: { url: string; sessionId: string; target: Page; logDir: string; chunks: number; toolUpdates: number; name: string }) {
  const { url, sessionId, target } = run;
  const log = path.join(run.logDir, `${run.name}.json`);
  await inPage(target, "window.__benchWatchStream(true); window.__bench.longTasks.length = 0; window.__bench.timing = true");
  const posted = await api(url, `/api/sessions/${sessionId}/messages`, { text: `/bench-stream ${run.chunks} ${run.toolUpdates} ${CHUNK_INTERVAL_MS} ${log}` });
  if (posted.status !== 202) throw new Error(`posting the stream failed with ${posted.status}`);
  await target.waitForFunction((last) => (window as unknown as { __bench: StreamProbe }).__bench.streamPaints[last] != null, run.chunks - 1, { polling: 250, timeout: STREAM_TIMEOUT_MS });
  await waitIdle(url, sessionId);
  await target.waitForTimeout(200);
  const probe = await inPage<StreamProbe>(target, "({ streamPaints: window.__bench.streamPaints.slice(), longTasks: window.__bench.longTasks.slice() })");
  await inPage(target, "window.__bench.timing = false; window.__benchWatchStream(false)");
  if (!existsSync(log)) throw new Error(`the agent wrote no send times to ${log}`);
  const { sent } = JSON.parse(readFileSync(log, "utf8")) as { sent: number[] };
  if (sent.length !== run.chunks) throw new Error(`the agent sent ${sent.length} chunks, not ${run.chunks}`);
  const latencies = sent.map((at, index) => {
    const shown = probe.streamPaints[index];
    if (shown == null) throw new Error(`chunk ${index} was never seen painted in ${run.name}`);
    return shown - at;
  });
  return { latencies, longTasks: probe.longTasks, sendMs: sent.at(-1)! - sent[0]! };
}

const fixed = (value: number) => Number(value.toFixed(2));

/**
 * A reply an ACP agent streams as CHUNKS message chunks with TOOL_UPDATES tool-call updates between them, chunk handed over to
 * chunk painted, in the app against a bare page painting the same frames from its own socket on the same host.
 */
export async function streamMetrics(distDir: string): Promise<{ metrics: Record<string, number>; notes: Record<string, string | number>; spreads: Record<string, Spread> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-bench-stream-"));
  const workspace = path.join(dataDir, "workspace");
  const logDir = path.join(dataDir, "sent");
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  mkdirSync(logDir);
  mkdirSync(path.join(dataDir, "host"));
  writeFileSync(path.join(distDir, "bench-stream-baseline.html"), BASELINE_HTML);
  writeFileSync(path.join(distDir, "bench-stream-baseline.js"), BASELINE_JS);
  const agents: AgentsConfig = {
    file: null,
    workspaces: [workspace],
    agents: [{ name: "bench", title: "Bench agent", command: process.execPath, args: ["--import", import.meta.resolve("tsx"), path.join(import.meta.dirname, "stream-agent.ts")], env: {}, disabled: false }],
  };
  const host = await startServer({ host: "127.0.0.1", port: 0, dataDir: path.join(dataDir, "host"), model: createScriptedModel(), staticDir: distDir, rateLimits: false, agents });
  const browser = await chromium.launch({ executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    progress("agent: starting the bench ACP agent");
    await waitAgentReady(host.url);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ path: path.join(import.meta.dirname, "page-probe.js") });
    const bare = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await bare.addInitScript({ path: path.join(import.meta.dirname, "page-probe.js") });
    await bare.goto(`${host.url}/bench-stream-baseline.html`);
    await page.goto(`${host.url}/`);
    const listen = (sessionId: string | null) => bare.evaluate((id) => (window as unknown as { __benchListen: (id: string | null) => Promise<void> }).__benchListen(id), sessionId);
    const openInApp = async (sessionId: string) => {
      await page.goto(`${host.url}/#session=${sessionId}`);
      await page.locator("[data-message-id]").getByText("ready", { exact: true }).waitFor();
      await page.waitForTimeout(300);
    };

    progress(`agent: a warm-up stream of ${WARM_UP.chunks} chunks in each page`);
    const warmApp = await newChat(host.url, workspace);
    await openInApp(warmApp);
    await streamInto({ url: host.url, sessionId: warmApp, target: page, logDir, ...WARM_UP, name: "warm-app" });
    const warmBare = await newChat(host.url, workspace);
    await listen(warmBare);
    await streamInto({ url: host.url, sessionId: warmBare, target: bare, logDir, ...WARM_UP, name: "warm-bare" });
    await listen(null);

    const app: number[][] = [];
    const baseline: number[][] = [];
    const longTasks: number[][] = [];
    const sendMs = { app: [] as number[], baseline: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      progress(`agent: round ${round + 1} of ${ROUNDS}: ${CHUNKS} chunks and ${TOOL_UPDATES} tool-call updates into the app, then into the bare page`);
      const appChat = await newChat(host.url, workspace);
      await openInApp(appChat);
      const inApp = await streamInto({ url: host.url, sessionId: appChat, target: page, logDir, chunks: CHUNKS, toolUpdates: TOOL_UPDATES, name: `app-${round}` });
      app.push(inApp.latencies);
      longTasks.push(inApp.longTasks);
      sendMs.app.push(inApp.sendMs);

      // Only the page being measured is live: the app's tab would otherwise take the bare round's frames too.
      await page.goto("about:blank");
      const bareChat = await newChat(host.url, workspace);
      await listen(bareChat);
      await bare.waitForTimeout(300);
      const inBare = await streamInto({ url: host.url, sessionId: bareChat, target: bare, logDir, chunks: CHUNKS, toolUpdates: TOOL_UPDATES, name: `bare-${round}` });
      await listen(null);
      baseline.push(inBare.latencies);
      sendMs.baseline.push(inBare.sendMs);
    }

    const p95 = roundRatios(app, baseline, 0.95);
    const allApp = app.flat();
    const allBaseline = baseline.flat();
    const tasks = longTasks.flat();
    return {
      metrics: {
        "agent.stream_chunk.p95_ratio": p95.median,
        "agent.stream_chunk.long_tasks": tasks.length,
      },
      spreads: { "agent.stream_chunk.p95_ratio": p95.spread },
      notes: {
        "agent.stream_chunk.p95_ms": fixed(quantile(allApp, 0.95)),
        "agent.stream_chunk.baseline_p95_ms": fixed(quantile(allBaseline, 0.95)),
        "agent.stream_chunk.p50_ms": fixed(quantile(allApp, 0.5)),
        "agent.stream_chunk.baseline_p50_ms": fixed(quantile(allBaseline, 0.5)),
        "agent.stream_chunk.long_tasks_per_round": longTasks.map((round) => round.length).join(", "),
        "agent.stream_chunk.longest_task_ms": tasks.length === 0 ? 0 : fixed(Math.max(...tasks)),
        "agent.stream_chunk.send_ms": `the agent took ${fixed(quantile(sendMs.app, 0.5))} ms (median) to hand over a reply streamed into the app, ${fixed(quantile(sendMs.baseline, 0.5))} ms into the bare page; ${fixed((CHUNKS - 1) * CHUNK_INTERVAL_MS)} ms on schedule`,
        "agent.stream_chunk.shape": `${CHUNKS} chunks, one every ${CHUNK_INTERVAL_MS} ms, with ${TOOL_UPDATES} tool-call updates between them; ${ROUNDS} rounds`,
      },
    };
  } finally {
    await browser.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
