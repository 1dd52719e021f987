import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { WebSocket } from "ws";
import { CHROMIUM_ARGS } from "../playwright.config";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer } from "../src/host/server";
import { openStore } from "../src/host/store";
import { progress, quantile } from "./stats";

const TRANSCRIPT_MESSAGES = Number(process.env.BENCH_TRANSCRIPT_MESSAGES ?? 5000);
const STEPS = 60;
const KEYSTROKES = 120;
const ARRIVALS = 30;
/** Steps and keystrokes alternate between the app and the bare baseline page in rounds of this many. */
const ROUND = 10;

/**
 * The bare baseline, served by the same host from the same build dir: a plain input, a plain DOM swap of a
 * heading and a radio list, and a WebSocket on /api/mux whose question/requested frames are painted as text.
 */
const BASELINE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bench baseline</title></head>
<body>
<input aria-label="Baseline answer">
<section id="step"></section>
<p id="socket"></p>
<script src="/bench-baseline.js"></script>
</body></html>
`;

const BASELINE_JS = `(() => {
  const OPTIONS = ["Alpha", "Beta", "Gamma", "Delta"];
  const root = document.getElementById("step");
  const render = (second) => {
    const heading = document.createElement("h2");
    heading.textContent = second ? "Baseline second?" : "Baseline first?";
    const list = document.createElement("div");
    list.setAttribute("role", "radiogroup");
    list.setAttribute("aria-label", heading.textContent);
    for (const label of OPTIONS) {
      const option = document.createElement("button");
      option.type = "button";
      option.setAttribute("role", "radio");
      option.setAttribute("aria-checked", "false");
      option.textContent = second ? label + " 2" : label;
      option.addEventListener("click", () => render(true));
      list.append(option);
    }
    const back = document.createElement("button");
    back.type = "button";
    back.textContent = "Baseline previous";
    back.addEventListener("click", () => render(false));
    root.replaceChildren(heading, list, back);
  };
  render(false);
  const text = document.getElementById("socket");
  const socket = new WebSocket("ws://" + location.host + "/api/mux");
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type !== "question/requested") return;
    const question = frame.questions[0].question;
    text.textContent = question;
    window.__bench.painted(question);
  });
})();
`;

function writeBaseline(distDir: string): void {
  writeFileSync(path.join(distDir, "bench-baseline.html"), BASELINE_HTML);
  writeFileSync(path.join(distDir, "bench-baseline.js"), BASELINE_JS);
}

/** Epoch milliseconds with sub-millisecond resolution, comparable between Node and the page on one machine. */
function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** A downlink socket in Node: when the host's question/requested for a question text arrives here, the host has just sent it. */
async function openWatcher(url: string) {
  const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/mux`);
  const waiting = new Map<string, (at: { epoch: number; rpcId: string; sessionId: string }) => void>();
  socket.on("message", (data) => {
    const frame = JSON.parse(String(data)) as { type: string; rpcId?: string; sessionId?: string; questions?: { question: string }[] };
    const text = frame.questions?.[0]?.question;
    if (frame.type !== "question/requested" || text === undefined) return;
    waiting.get(text)?.({ epoch: epochNow(), rpcId: frame.rpcId!, sessionId: frame.sessionId! });
    waiting.delete(text);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    next: (text: string) => new Promise<{ epoch: number; rpcId: string; sessionId: string }>((resolve) => waiting.set(text, resolve)),
    close: () => socket.close(),
  };
}

async function waitIdle(url: string, sessionId: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const response = await fetch(`${url}/api/sessions/${sessionId}`);
    const { session } = (await response.json()) as { session: { state: string } };
    if (session.state === "idle") return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`session ${sessionId} did not become idle`);
}

function ratio(app: readonly number[], baseline: readonly number[]): number {
  return Number((quantile(app, 0.95) / quantile(baseline, 0.95)).toFixed(3));
}

const fixed = (value: number) => Number(value.toFixed(2));

/** The p95 and p50 of one measured series beside its baseline's, the p95 of its handler time when measured, and its sample count, keyed under `name`. */
function latencyNotes(name: string, app: readonly number[], baseline: readonly number[], handlers?: readonly number[]): Record<string, number> {
  return {
    [`${name}.p95_ms`]: fixed(quantile(app, 0.95)),
    [`${name}.baseline_p95_ms`]: fixed(quantile(baseline, 0.95)),
    [`${name}.p50_ms`]: fixed(quantile(app, 0.5)),
    [`${name}.baseline_p50_ms`]: fixed(quantile(baseline, 0.5)),
    ...(handlers ? { [`${name}.handlers_p95_ms`]: fixed(quantile(handlers, 0.95)) } : {}),
    [`${name}.samples`]: app.length,
  };
}

interface ProbeState {
  keys: number[];
  clicks: number[];
  keyWork: number[];
  clickWork: number[];
  longTasks: number[];
  commits: number;
  transcriptCommits: number;
  arrivals: Record<string, number>;
}

/** Writes a session with a long transcript straight into the host's SQLite store, as turns would have. */
async function seedTranscript(dataDir: string): Promise<string> {
  const store = openStore(dataDir);
  const sessionId = randomUUID();
  const start = Date.parse("2026-11-01T09:00:00.000Z");
  const at = (index: number) => new Date(start + index * 1000).toISOString();
  await store.insertSession({ id: sessionId, title: "Bench: a 5,000-message transcript", autoTitle: false, createdAt: at(0), updatedAt: at(TRANSCRIPT_MESSAGES) });
  for (let index = 0; index < TRANSCRIPT_MESSAGES; index++) {
    const user = index % 2 === 0;
    await store.insertMessage({
      id: randomUUID(),
      sessionId,
      role: user ? "user" : "assistant",
      createdAt: at(index),
      text: user ? `Message ${index}: could you look at item ${index} again?` : `Reply ${index}: here is **item ${index}**, with a list:\n\n- first point\n- second point with \`code\`\n\nand a [link](https://example.com/${index}).`,
    });
  }
  await store.close();
  return sessionId;
}

const probe = (page: Page) =>
  page.evaluate((): ProbeState => {
    const bench = (window as unknown as { __bench: ProbeState }).__bench;
    return { keys: bench.keys, clicks: bench.clicks, keyWork: bench.keyWork, clickWork: bench.clickWork, longTasks: bench.longTasks, commits: bench.commits, transcriptCommits: bench.transcriptCommits, arrivals: bench.arrivals };
  });
const setTiming = (page: Page, on: boolean) =>
  page.evaluate((value) => {
    const bench = (window as unknown as { __bench: ProbeState & { timing: boolean; keys: number[]; clicks: number[]; longTasks: number[] } }).__bench;
    bench.timing = value;
    if (value) {
      bench.keys.length = 0;
      bench.clicks.length = 0;
      bench.keyWork.length = 0;
      bench.clickWork.length = 0;
      bench.longTasks.length = 0;
    }
  }, on);

/** Asks the questions in the session through the scripted model's `/ask`. */
const askQuestions = (url: string, sessionId: string, questions: object[]) =>
  fetch(`${url}/api/sessions/${sessionId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text: `/ask ${JSON.stringify({ questions })}` }),
  }).then((response) => {
    if (response.status !== 202) throw new Error(`posting the question failed with ${response.status}`);
  });

/** When a page painted the question `text`, by its probe. */
const painted = (target: Page, text: string) =>
  target.waitForFunction((key) => (window as unknown as { __bench: ProbeState }).__bench.arrivals[key], text).then((handle) => handle.jsonValue() as Promise<number>);

/**
 * Question arrival: ARRIVALS questions asked one after another, each timed from the moment the host sent its frame
 * (the watcher's socket) to its paint in the app and in the bare socket page; each is dismissed before the next.
 */
async function measureArrivals(run: { url: string; sessionId: string; page: Page; bare: Page; watcher: Awaited<ReturnType<typeof openWatcher>> }) {
  const { url, sessionId, page, bare, watcher } = run;
  const appArrivals: number[] = [];
  const bareArrivals: number[] = [];
  await page.evaluate(() => (window as unknown as { __benchWatchPanel: (on: boolean) => void }).__benchWatchPanel(true));
  for (let round = 0; round < ARRIVALS; round++) {
    const text = `Arrival ${round}?`;
    await waitIdle(url, sessionId);
    const sent = watcher.next(text);
    await askQuestions(url, sessionId, [{ id: "arrival", question: text, options: [{ label: "Yes" }, { label: "No" }] }]);
    const { epoch, rpcId } = await sent;
    const [inApp, inBare] = await Promise.all([painted(page, text), painted(bare, text)]);
    appArrivals.push(inApp - epoch);
    bareArrivals.push(inBare - epoch);
    await fetch(`${url}/api/respond`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "cancel", rpcId, sessionId }) });
    await page.getByRole("heading", { name: text }).waitFor({ state: "detached" });
  }
  await page.evaluate(() => (window as unknown as { __benchWatchPanel: (on: boolean) => void }).__benchWatchPanel(false));
  return { appArrivals, bareArrivals };
}

export async function browserMetrics(distDir: string): Promise<{ metrics: Record<string, number>; notes: Record<string, string | number> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-bench-"));
  progress(`browser: seeding a ${TRANSCRIPT_MESSAGES}-message transcript into SQLite`);
  const sessionId = await seedTranscript(dataDir);
  writeBaseline(distDir);
  const host = await startServer({ host: "127.0.0.1", port: 0, dataDir, model: createScriptedModel(), staticDir: distDir, rateLimits: false });
  const browser = await chromium.launch({ executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const watcher = await openWatcher(host.url);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ path: path.join(import.meta.dirname, "page-probe.js") });
    await page.goto(`${host.url}/#session=${sessionId}`);
    if (TRANSCRIPT_MESSAGES > 1) await page.getByText(`Reply ${TRANSCRIPT_MESSAGES - 1}:`).waitFor();
    const rendered = await page.locator("section.transcript").evaluate((element) => element.querySelectorAll("*").length);
    const bare = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await bare.addInitScript({ path: path.join(import.meta.dirname, "page-probe.js") });
    await bare.goto(`${host.url}/bench-baseline.html`);
    await bare.getByRole("heading", { name: "Baseline first?" }).waitFor();
    await page.waitForTimeout(1500);

    progress(`browser: transcript open (${rendered} DOM nodes); ${ARRIVALS} questions arriving, painted by the app and by the bare socket page`);
    const ask = (questions: object[]) => askQuestions(host.url, sessionId, questions);
    const { appArrivals, bareArrivals } = await measureArrivals({ url: host.url, sessionId, page, bare, watcher });
    await waitIdle(host.url, sessionId);

    progress("browser: asking a 3-question batch");
    const options = ["Alpha", "Beta", "Gamma", "Delta"];
    await ask([
      { id: "first", question: "First question?", options: options.map((label) => ({ label })) },
      { id: "second", question: "Second question?", options: options.map((label) => ({ label: `${label} 2` })) },
      { id: "note", question: "Anything else?" },
    ]);
    await page.getByRole("heading", { name: "First question?" }).waitFor();
    await page.getByRole("heading", { name: "First question?" }).click();
    await page.waitForTimeout(500);

    progress(`browser: ${STEPS} panel steps (choose an option, go back), interleaved with as many on the bare page`);
    const appSteps: number[] = [];
    const bareSteps: number[] = [];
    const appStepWork: number[] = [];
    let stepLongTasks = 0;
    /** One round of steps from step `done`: choose an option, wait for the second question, go back, wait for the first; then let the page settle. */
    const stepRound = async (target: Page, done: number, names: { first: string; second: string; previous: string }) => {
      for (let step = done; step < done + ROUND; step += 2) {
        await target.getByRole("radio", { name: options[(step / 2) % options.length]!, exact: true }).click();
        await target.getByRole("heading", { name: names.second }).waitFor();
        await target.getByRole("button", { name: names.previous }).click();
        await target.getByRole("heading", { name: names.first }).waitFor();
      }
      await target.waitForTimeout(100);
    };
    for (let done = 0; done < STEPS; done += ROUND) {
      await setTiming(page, true);
      await stepRound(page, done, { first: "First question?", second: "Second question?", previous: "Previous question" });
      const steps = await probe(page);
      appSteps.push(...steps.clicks);
      appStepWork.push(...steps.clickWork);
      stepLongTasks += steps.longTasks.length;
      await setTiming(page, false);

      await setTiming(bare, true);
      await stepRound(bare, done, { first: "Baseline first?", second: "Baseline second?", previous: "Baseline previous" });
      bareSteps.push(...(await probe(bare)).clicks);
      await setTiming(bare, false);
    }

    await page.getByRole("radio", { name: "Alpha", exact: true }).click();
    await page.getByRole("radio", { name: "Beta 2" }).click();
    const field = page.getByRole("textbox", { name: "Type your answer" });
    await field.waitFor();
    const bareField = bare.getByRole("textbox", { name: "Baseline answer" });
    await page.waitForTimeout(300);

    progress(`browser: ${KEYSTROKES} keystrokes in the custom field, interleaved with as many in a plain input`);
    const sentence = "The quick brown fox jumps over the lazy dog. ".repeat(4).slice(0, KEYSTROKES);
    const appKeys: number[] = [];
    const bareKeys: number[] = [];
    const appKeyWork: number[] = [];
    let typingLongTasks = 0;
    for (let done = 0; done < KEYSTROKES; done += ROUND) {
      const chunk = sentence.slice(done, done + ROUND);
      await field.focus();
      await setTiming(page, true);
      await page.keyboard.type(chunk, { delay: 25 });
      await page.waitForTimeout(100);
      const typing = await probe(page);
      appKeys.push(...typing.keys);
      appKeyWork.push(...typing.keyWork);
      typingLongTasks += typing.longTasks.length;
      await setTiming(page, false);

      await bareField.focus();
      await setTiming(bare, true);
      await bare.keyboard.type(chunk, { delay: 25 });
      await bare.waitForTimeout(100);
      bareKeys.push(...(await probe(bare)).keys);
      await setTiming(bare, false);
    }

    progress("browser: counting transcript commits while typing (React DevTools hook)");
    await field.fill("");
    await field.focus();
    await page.evaluate(() => (window as unknown as { __benchStartProfiling: () => void }).__benchStartProfiling());
    await page.keyboard.type("counting commits", { delay: 25 });
    await page.waitForTimeout(200);
    const profiled = await probe(page);
    const typedKeys = "counting commits".length;
    if (profiled.commits === 0) throw new Error("the React DevTools hook saw no commit while typing: the probe is not attached");

    if (TRANSCRIPT_MESSAGES > 200) {
      await page.evaluate(() => (window as unknown as { __benchStartProfiling: () => void }).__benchStartProfiling());
      await page.getByRole("button", { name: "Show earlier messages" }).click();
      await page.waitForTimeout(200);
      const selfCheck = await probe(page);
      if (selfCheck.transcriptCommits === 0) throw new Error("the probe did not see the transcript commit after Show earlier messages: it cannot be trusted");
    }

    return {
      metrics: {
        "browser.keystroke.p95_ratio": ratio(appKeys, bareKeys),
        "browser.panel_step.p95_ratio": ratio(appSteps, bareSteps),
        "browser.question_arrival.p95_ratio": ratio(appArrivals, bareArrivals),
        "browser.panel.long_tasks": stepLongTasks + typingLongTasks,
        "browser.render.transcript_commits_per_keystroke": profiled.transcriptCommits / typedKeys,
      },
      notes: {
        ...latencyNotes("browser.keystroke", appKeys, bareKeys, appKeyWork),
        ...latencyNotes("browser.panel_step", appSteps, bareSteps, appStepWork),
        ...latencyNotes("browser.question_arrival", appArrivals, bareArrivals),
        "browser.react_commits_per_keystroke": Number((profiled.commits / typedKeys).toFixed(2)),
        "browser.transcript_dom_nodes": rendered,
      },
    };
  } finally {
    watcher.close();
    await browser.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
