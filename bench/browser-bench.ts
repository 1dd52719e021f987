import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS } from "../playwright.config";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer } from "../src/host/server";
import { openStore } from "../src/host/store";
import { mulberry32 } from "../src/testing/seeded-random";
import { openSender } from "./sender";
import { intoAFrame, typeIntoFrames } from "./input-timing";
import { progress, quantile, roundRatios, type Spread } from "./stats";
import { ARRIVALS_PER_ROUND, askBody, measureArrivals, waitIdle } from "./arrivals";

const TRANSCRIPT_MESSAGES = Number(process.env.BENCH_TRANSCRIPT_MESSAGES ?? 5000);
/**
 * Each ratio is the median of this many rounds; a round is a batch in the app, then the same batch in the bare page. Seven,
 * so that two disturbed rounds (this machine's neighbours) still leave the median to undisturbed ones.
 */
const ROUNDS = 7;
// A round's p95 is a nearest-rank quantile, so each batch below has at least 20 samples, or its p95 would be the batch's
// slowest sample: of 20 it is the second slowest, of 40 and of 48 the third.
/** Panel steps (clicks) of one batch: an option chosen, then Previous question, in turn. */
const STEPS_PER_ROUND = 40;
/** Keystrokes of one batch. */
const KEYSTROKES_PER_ROUND = 48;

/**
 * The bare baseline, served by the same host from the same build dir: a plain input, a plain DOM swap of a
 * heading and a radio list, and, while `__benchListen(true)` holds it open, a WebSocket on /api/mux whose
 * question/requested frames are painted as text.
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
  let socket = null;
  window.__benchListen = (on) =>
    new Promise((resolve) => {
      if (socket) {
        socket.addEventListener("close", () => resolve(), { once: true });
        socket.close();
        socket = null;
        if (!on) return;
      }
      if (!on) return resolve();
      socket = new WebSocket("ws://" + location.host + "/api/mux");
      socket.addEventListener("message", (event) => {
        const frame = JSON.parse(event.data);
        if (frame.type === "synced") resolve();
        if (frame.type !== "question/requested") return;
        const question = frame.questions[0].question;
        text.textContent = question;
        window.__bench.painted(question);
      });
    });
})();
`;

function writeBaseline(distDir: string): void {
  writeFileSync(path.join(distDir, "bench-baseline.html"), BASELINE_HTML);
  writeFileSync(path.join(distDir, "bench-baseline.js"), BASELINE_JS);
}

const fixed = (value: number) => Number(value.toFixed(2));

/** The p95 and p50 of one measured series (all rounds pooled) beside its baseline's, the p95 of its handler time when measured, and its sample count, keyed under `name`. */
function latencyNotes(name: string, rounds: { app: number[][]; baseline: number[][] }, handlers?: readonly number[]): Record<string, number> {
  const app = rounds.app.flat();
  const baseline = rounds.baseline.flat();
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
async function seedTranscript(dataDir: string, title: string, minutesBefore = 0): Promise<string> {
  const store = openStore(dataDir);
  const sessionId = randomUUID();
  const start = Date.parse("2026-11-01T09:00:00.000Z") - minutesBefore * 60_000;
  const at = (index: number) => new Date(start + index * 1000).toISOString();
  await store.insertSession({ id: sessionId, title, autoTitle: false, createdAt: at(0), updatedAt: at(TRANSCRIPT_MESSAGES) });
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
    body: JSON.stringify(askBody(questions)),
  }).then((response) => {
    if (response.status !== 202) throw new Error(`posting the question failed with ${response.status}`);
  });


export async function browserMetrics(distDir: string): Promise<{ metrics: Record<string, number>; notes: Record<string, string | number>; spreads: Record<string, Spread> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-bench-"));
  progress(`browser: seeding two ${TRANSCRIPT_MESSAGES}-message transcripts into SQLite`);
  const sessionId = await seedTranscript(dataDir, "Bench: a 5,000-message transcript");
  // The bare page's questions are asked in a transcript of the same length, so the host does the same work for both.
  const bareSessionId = await seedTranscript(dataDir, "Bench: questions for the bare page", 24 * 60);
  writeBaseline(distDir);
  const host = await startServer({ host: "127.0.0.1", port: 0, dataDir, model: createScriptedModel(), staticDir: distDir, rateLimits: false });
  const browser = await chromium.launch({ executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const sender = await openSender(host.url);
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

    progress(`browser: transcript open (${rendered} DOM nodes); ${ROUNDS} rounds of ${ARRIVALS_PER_ROUND} questions arriving in the app, then as many in the bare socket page`);
    const ask = (questions: object[]) => askQuestions(host.url, sessionId, questions);
    const arrivals = await measureArrivals({ url: host.url, sessionId, bareSessionId, page, bare, sender, rounds: ROUNDS });
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

    progress(`browser: ${ROUNDS} rounds of ${STEPS_PER_ROUND} panel steps (choose an option, go back), then as many on the bare page`);
    const steps = { app: [] as number[][], baseline: [] as number[][] };
    const appStepWork: number[] = [];
    let stepLongTasks = 0;
    /** Each long task's round and length, for the note: which batch it fell in. */
    const longTaskNotes: string[] = [];
    /**
     * One batch of steps from step `done`: choose an option, wait for the second question, go back, wait for the first;
     * then let the page settle. Each click first waits a seeded part of a frame (intoAFrame).
     */
    const stepBatch = async (target: Page, done: number, names: { first: string; second: string; previous: string }) => {
      const offsets = mulberry32(done + 1);
      for (let step = done; step < done + STEPS_PER_ROUND; step += 2) {
        await intoAFrame(offsets);
        await target.getByRole("radio", { name: options[(step / 2) % options.length]!, exact: true }).click();
        await target.getByRole("heading", { name: names.second }).waitFor();
        await intoAFrame(offsets);
        await target.getByRole("button", { name: names.previous }).click();
        await target.getByRole("heading", { name: names.first }).waitFor();
      }
      await target.waitForTimeout(100);
    };
    for (let round = 0; round < ROUNDS; round++) {
      await setTiming(page, true);
      await stepBatch(page, round * STEPS_PER_ROUND, { first: "First question?", second: "Second question?", previous: "Previous question" });
      const measured = await probe(page);
      steps.app.push(measured.clicks);
      appStepWork.push(...measured.clickWork);
      stepLongTasks += measured.longTasks.length;
      longTaskNotes.push(...measured.longTasks.map((ms) => `steps round ${round + 1}: ${Math.round(ms)} ms`));
      await setTiming(page, false);

      await setTiming(bare, true);
      await stepBatch(bare, round * STEPS_PER_ROUND, { first: "Baseline first?", second: "Baseline second?", previous: "Baseline previous" });
      steps.baseline.push((await probe(bare)).clicks);
      await setTiming(bare, false);
    }

    await page.getByRole("radio", { name: "Alpha", exact: true }).click();
    await page.getByRole("radio", { name: "Beta 2" }).click();
    const field = page.getByRole("textbox", { name: "Type your answer" });
    await field.waitFor();
    const bareField = bare.getByRole("textbox", { name: "Baseline answer" });
    await page.waitForTimeout(300);

    progress(`browser: ${ROUNDS} rounds of ${KEYSTROKES_PER_ROUND} keystrokes in the custom field, then as many in a plain input`);
    const pangram = "The quick brown fox jumps over the lazy dog. ";
    const sentence = pangram.repeat(Math.ceil((KEYSTROKES_PER_ROUND * ROUNDS) / pangram.length)).slice(0, KEYSTROKES_PER_ROUND * ROUNDS);
    const keys = { app: [] as number[][], baseline: [] as number[][] };
    const appKeyWork: number[] = [];
    let typingLongTasks = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const chunk = sentence.slice(round * KEYSTROKES_PER_ROUND, (round + 1) * KEYSTROKES_PER_ROUND);
      await field.focus();
      await setTiming(page, true);
      await typeIntoFrames(page, chunk, round + 1);
      await page.waitForTimeout(100);
      const typing = await probe(page);
      keys.app.push(typing.keys);
      appKeyWork.push(...typing.keyWork);
      typingLongTasks += typing.longTasks.length;
      longTaskNotes.push(...typing.longTasks.map((ms) => `typing round ${round + 1}: ${Math.round(ms)} ms`));
      await setTiming(page, false);

      await bareField.focus();
      await setTiming(bare, true);
      await typeIntoFrames(bare, chunk, round + 1);
      await bare.waitForTimeout(100);
      keys.baseline.push((await probe(bare)).keys);
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

    const keystroke = roundRatios(keys.app, keys.baseline, 0.95);
    const panelStep = roundRatios(steps.app, steps.baseline, 0.95);
    const arrival = roundRatios(arrivals.app, arrivals.baseline, 0.95);
    const arrivalMedian = roundRatios(arrivals.app, arrivals.baseline, 0.5);
    return {
      metrics: {
        "browser.keystroke.p95_ratio": keystroke.median,
        "browser.panel_step.p95_ratio": panelStep.median,
        "browser.question_arrival.p95_ratio": arrival.median,
        "browser.question_arrival.p50_ratio": arrivalMedian.median,
        "browser.panel.long_tasks": stepLongTasks + typingLongTasks,
        "browser.render.transcript_commits_per_keystroke": profiled.transcriptCommits / typedKeys,
      },
      spreads: {
        "browser.keystroke.p95_ratio": keystroke.spread,
        "browser.panel_step.p95_ratio": panelStep.spread,
        "browser.question_arrival.p95_ratio": arrival.spread,
        "browser.question_arrival.p50_ratio": arrivalMedian.spread,
      },
      notes: {
        "browser.panel.long_tasks_at": longTaskNotes.length > 0 ? longTaskNotes.join(", ") : "none",
        ...latencyNotes("browser.keystroke", keys, appKeyWork),
        ...latencyNotes("browser.panel_step", steps, appStepWork),
        ...latencyNotes("browser.question_arrival", arrivals),
        "browser.question_arrival.host_p50_ms": `request written to frame on the sender's own socket: ${fixed(quantile(arrivals.hostParts.app, 0.5))} in the app's batches, ${fixed(quantile(arrivals.hostParts.baseline, 0.5))} in the bare page's`,
        "browser.question_arrival.page_p50_ms": `the frame at the page's socket to the question in the DOM, then to its paint: app ${fixed(quantile(arrivals.pageParts.app.toDom, 0.5))} + ${fixed(quantile(arrivals.pageParts.app.toPaint, 0.5))}, bare page ${fixed(quantile(arrivals.pageParts.baseline.toDom, 0.5))} + ${fixed(quantile(arrivals.pageParts.baseline.toPaint, 0.5))}`,
        "browser.react_commits_per_keystroke": Number((profiled.commits / typedKeys).toFixed(2)),
        "browser.transcript_dom_nodes": rendered,
      },
    };
  } finally {
    await sender.close();
    await browser.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
