import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS } from "../playwright.config";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer } from "../src/host/server";
import { openStore } from "../src/host/store";
import { progress, quantile } from "./stats";

const TRANSCRIPT_MESSAGES = Number(process.env.BENCH_TRANSCRIPT_MESSAGES ?? 5000);
const STEPS = 60;
const KEYSTROKES = 120;

interface ProbeState {
  keys: number[];
  clicks: number[];
  keyWork: number[];
  clickWork: number[];
  longTasks: number[];
  commits: number;
  transcriptCommits: number;
}

/** Writes a session with a long transcript straight into the host's SQLite store, as turns would have. */
function seedTranscript(dataDir: string): string {
  const store = openStore(dataDir);
  const sessionId = randomUUID();
  const start = Date.parse("2026-11-01T09:00:00.000Z");
  const at = (index: number) => new Date(start + index * 1000).toISOString();
  store.insertSession({ id: sessionId, title: "Bench: a 5,000-message transcript", autoTitle: false, createdAt: at(0), updatedAt: at(TRANSCRIPT_MESSAGES) });
  for (let index = 0; index < TRANSCRIPT_MESSAGES; index++) {
    const user = index % 2 === 0;
    store.insertMessage({
      id: randomUUID(),
      sessionId,
      role: user ? "user" : "assistant",
      createdAt: at(index),
      text: user ? `Message ${index}: could you look at item ${index} again?` : `Reply ${index}: here is **item ${index}**, with a list:\n\n- first point\n- second point with \`code\`\n\nand a [link](https://example.com/${index}).`,
    });
  }
  store.close();
  return sessionId;
}

const probe = (page: Page) =>
  page.evaluate((): ProbeState => {
    const bench = (window as unknown as { __bench: ProbeState }).__bench;
    return { keys: bench.keys, clicks: bench.clicks, keyWork: bench.keyWork, clickWork: bench.clickWork, longTasks: bench.longTasks, commits: bench.commits, transcriptCommits: bench.transcriptCommits };
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

export async function browserMetrics(distDir: string): Promise<{ metrics: Record<string, number>; notes: Record<string, string | number> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-bench-"));
  progress(`browser: seeding a ${TRANSCRIPT_MESSAGES}-message transcript into SQLite`);
  const sessionId = seedTranscript(dataDir);
  const host = await startServer({ host: "127.0.0.1", port: 0, dataDir, model: createScriptedModel(), staticDir: distDir, rateLimits: false });
  const browser = await chromium.launch({ executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ path: path.join(import.meta.dirname, "page-probe.js") });
    await page.goto(`${host.url}/#session=${sessionId}`);
    if (TRANSCRIPT_MESSAGES > 1) await page.getByText(`Reply ${TRANSCRIPT_MESSAGES - 1}:`).waitFor();
    const rendered = await page.locator("section.transcript").evaluate((element) => element.querySelectorAll("*").length);
    progress(`browser: transcript open (${rendered} DOM nodes); asking a 3-question batch`);

    const options = ["Alpha", "Beta", "Gamma", "Delta"];
    const questions = [
      { id: "first", question: "First question?", options: options.map((label) => ({ label })) },
      { id: "second", question: "Second question?", options: options.map((label) => ({ label: `${label} 2` })) },
      { id: "note", question: "Anything else?" },
    ];
    const posted = await fetch(`${host.url}/api/sessions/${sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: `/ask ${JSON.stringify({ questions })}` }),
    });
    if (posted.status !== 202) throw new Error(`posting the question failed with ${posted.status}`);
    await page.getByRole("heading", { name: "First question?" }).waitFor();
    await page.waitForTimeout(500);

    progress(`browser: ${STEPS} panel steps (choose an option, go back)`);
    await setTiming(page, true);
    for (let step = 0; step < STEPS / 2; step++) {
      await page.getByRole("radio", { name: options[step % options.length]! }).click();
      await page.getByRole("heading", { name: "Second question?" }).waitFor();
      await page.getByRole("button", { name: "Previous question" }).click();
      await page.getByRole("heading", { name: "First question?" }).waitFor();
    }
    await page.waitForTimeout(300);
    const steps = await probe(page);
    const stepLongTasks = steps.longTasks.length;
    const stepSamples = [...steps.clicks];
    await setTiming(page, false);

    await page.getByRole("radio", { name: "Alpha" }).click();
    await page.getByRole("radio", { name: "Beta 2" }).click();
    const field = page.getByRole("textbox", { name: "Type your answer" });
    await field.waitFor();
    await field.focus();
    await page.waitForTimeout(300);

    progress(`browser: ${KEYSTROKES} keystrokes in the custom field`);
    const sentence = "The quick brown fox jumps over the lazy dog. ".repeat(4).slice(0, KEYSTROKES);
    await setTiming(page, true);
    await page.keyboard.type(sentence, { delay: 25 });
    await page.waitForTimeout(300);
    const typing = await probe(page);
    const keySamples = [...typing.keys];
    const typingLongTasks = typing.longTasks.length;
    await setTiming(page, false);

    progress("browser: counting transcript commits while typing (React DevTools hook)");
    await field.fill("");
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
        "browser.keystroke.p95_ms": quantile(keySamples, 0.95),
        "browser.panel_step.p95_ms": quantile(stepSamples, 0.95),
        "browser.panel.long_tasks": stepLongTasks + typingLongTasks,
        "browser.render.transcript_commits_per_keystroke": profiled.transcriptCommits / typedKeys,
      },
      notes: {
        "browser.keystroke.samples": keySamples.length,
        "browser.keystroke.p50_ms": Number(quantile(keySamples, 0.5).toFixed(2)),
        "browser.panel_step.p50_ms": Number(quantile(stepSamples, 0.5).toFixed(2)),
        "browser.keystroke.handlers_p95_ms": Number(quantile(typing.keyWork, 0.95).toFixed(2)),
        "browser.panel_step.handlers_p95_ms": Number(quantile(steps.clickWork, 0.95).toFixed(2)),
        "browser.panel_step.samples": stepSamples.length,
        "browser.react_commits_per_keystroke": Number((profiled.commits / typedKeys).toFixed(2)),
        "browser.transcript_dom_nodes": rendered,
      },
    };
  } finally {
    await browser.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
