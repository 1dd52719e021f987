import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { CHROMIUM_ARGS } from "../playwright.config";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer } from "../src/host/server";
import { openStore } from "../src/host/store";
import { median, progress, quantile, type Spread } from "./stats";

const CHATS = 1000;
/** Loads of each list whose median is reported. */
const ROUNDS = 3;
/** Pages of the list scrolled through after it first shows (the first page holds 50). */
const SCROLL_PAGES = 3;
const SEARCH_TEXT = "quarterly report";
/** Rounds of search keys (the text typed and erased, 32 keys); the figure is the median of the rounds' p95s. */
const SEARCH_ROUNDS = 5;

/** Writes `count` chats straight into the host's SQLite store, each with one user message, as turns would have. */
async function seedChats(dataDir: string, count: number): Promise<void> {
  const store = openStore(dataDir);
  const start = Date.parse("2026-11-01T09:00:00.000Z");
  for (let index = 0; index < count; index++) {
    const id = randomUUID();
    const at = new Date(start + index * 60_000).toISOString();
    await store.insertSession({ id, title: `Chat ${index}: planning item ${index}`, autoTitle: false, createdAt: at, updatedAt: at });
    await store.insertMessage({ id: randomUUID(), sessionId: id, role: "user", createdAt: at, text: index % 10 === 0 ? `About the ${SEARCH_TEXT} ${index}` : `Message of chat ${index}` });
  }
  await store.close();
}

// The in-page scripts are strings: tsx would wrap named functions in a helper the page does not have.

/** In the page: milliseconds from navigation start until the list's first page has arrived and the sidebar shows it (or says it has none), painted. */
const LIST_SHOWN = `new Promise((resolve) => {
  const check = () => {
    const nav = document.querySelector("nav.sidebar");
    const fetched = performance.getEntriesByType("resource").some((entry) => entry.name.includes("/api/sessions?limit="));
    const ready = fetched && nav && (nav.querySelector(".sidebar__list a") || nav.querySelector(".sidebar__empty"));
    if (ready) requestAnimationFrame(() => resolve(performance.now()));
    else requestAnimationFrame(check);
  };
  check();
})`;

/** In the page: milliseconds to scroll the list to its end PAGES times, each time until the next page is rendered and painted. */
const SCROLLED = (pages: number) => `new Promise((resolve) => {
  const list = document.querySelector(".sidebar__list");
  if (!list) return resolve(0);
  const started = performance.now();
  let done = 0;
  const step = () => {
    const before = list.querySelectorAll("a").length;
    list.scrollTop = list.scrollHeight;
    const wait = () => {
      const more = list.querySelector(".sidebar__more");
      if (list.querySelectorAll("a").length > before || !more) {
        done += 1;
        if (done >= ${pages} || !more) requestAnimationFrame(() => resolve(performance.now() - started));
        else requestAnimationFrame(step);
      } else requestAnimationFrame(wait);
    };
    requestAnimationFrame(wait);
  };
  step();
})`;

async function timeToList(page: Page, url: string): Promise<number> {
  await page.goto(url);
  return (await page.evaluate(LIST_SHOWN)) as number;
}

async function timeToScroll(page: Page, pages: number): Promise<number> {
  return (await page.evaluate(SCROLLED(pages))) as number;
}

async function measureList(browser: Browser, url: string, scroll: boolean): Promise<{ render: number; scroll: number }> {
  const renders: number[] = [];
  const scrolls: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    renders.push(await timeToList(page, url));
    scrolls.push(scroll ? await timeToScroll(page, SCROLL_PAGES) : 0);
    await page.close();
  }
  return { render: quantile(renders, 0.5), scroll: quantile(scrolls, 0.5) };
}

/** The floor of a search keystroke: a bare page with nothing but a search field, served by the same host. */
const BARE_SEARCH_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bench search baseline</title></head>
<body><input type="search" aria-label="Search chats"></body></html>
`;

/** Types the search text and erases it again in `page`'s search field, recording each key's event-to-paint. */
async function typeSearch(page: Page, whenTyped: () => Promise<void>): Promise<number[]> {
  const search = page.getByRole("searchbox", { name: "Search chats" });
  await search.click();
  await page.evaluate("window.__bench.keys.length = 0; window.__bench.timing = true");
  await search.pressSequentially(SEARCH_TEXT, { delay: 40 });
  await whenTyped();
  for (let index = 0; index < SEARCH_TEXT.length; index++) await search.press("Backspace", { delay: 20 });
  await page.waitForTimeout(200);
  const keys = (await page.evaluate("window.__bench.timing = false; window.__bench.keys.slice()")) as number[];
  return keys;
}

/**
 * Event-to-paint of each keystroke typed into the chat search over 1,000 chats, and of the same keys typed into a bare
 * page's search field in between (the floor), SEARCH_ROUNDS rounds each after a warm-up round.
 */
async function searchKeystrokes(browser: Browser, url: string, distDir: string): Promise<{ app: number[][]; floor: number[][] }> {
  writeFileSync(path.join(distDir, "bench-search-baseline.html"), BARE_SEARCH_HTML);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const bare = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript({ path: path.join(import.meta.dirname, "page-probe.js") });
  await bare.addInitScript({ path: path.join(import.meta.dirname, "page-probe.js") });
  await timeToList(page, url);
  await bare.goto(`${url}/bench-search-baseline.html`);
  const app: number[][] = [];
  const floor: number[][] = [];
  // A warm-up round in each page, not counted, as the bench's other parts have: a first search runs code the page has
  // not run yet.
  await page.bringToFront();
  await typeSearch(page, () => page.getByRole("link", { name: /planning item/ }).first().waitFor());
  await bare.bringToFront();
  await typeSearch(bare, async () => {});
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    await page.bringToFront();
    app.push(await typeSearch(page, () => page.getByRole("link", { name: /planning item/ }).first().waitFor()));
    await bare.bringToFront();
    floor.push(await typeSearch(bare, async () => {}));
    progress(`browser: search round ${round + 1} of ${SEARCH_ROUNDS} typed`);
  }
  await page.close();
  await bare.close();
  return { app, floor };
}

/** The sidebar with 1,000 chats against an empty one in the same run, and search keystrokes over 1,000 chats. */
export async function sidebarMetrics(distDir: string): Promise<{ metrics: Record<string, number>; notes: Record<string, string | number>; spreads: Record<string, Spread> }> {
  const emptyDir = mkdtempSync(path.join(tmpdir(), "parley-bench-empty-"));
  const fullDir = mkdtempSync(path.join(tmpdir(), "parley-bench-chats-"));
  progress(`browser: seeding ${CHATS} chats into SQLite`);
  await seedChats(fullDir, CHATS);
  const empty = await startServer({ host: "127.0.0.1", port: 0, dataDir: emptyDir, model: createScriptedModel(), staticDir: distDir, rateLimits: false });
  const full = await startServer({ host: "127.0.0.1", port: 0, dataDir: fullDir, model: createScriptedModel(), staticDir: distDir, rateLimits: false });
  const executablePath = process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium";
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    progress("browser: sidebar with no chats, then with 1,000 (interleaved)");
    const emptyRuns: { render: number; scroll: number }[] = [];
    const fullRuns: { render: number; scroll: number }[] = [];
    for (let round = 0; round < 2; round++) {
      emptyRuns.push(await measureList(browser, empty.url, false));
      fullRuns.push(await measureList(browser, full.url, true));
    }
    const emptyMs = quantile(emptyRuns.map((run) => run.render + run.scroll), 0.5);
    const fullRender = quantile(fullRuns.map((run) => run.render), 0.5);
    const fullScroll = quantile(fullRuns.map((run) => run.scroll), 0.5);
    progress("browser: search keystrokes over 1,000 chats, frames not held to vsync");
    // Frames not held to the display's 60 Hz: a key is painted as soon as its work is done, so its time is the page's
    // work, not also the wait for the next vsync (up to 16.7 ms, which alone puts a bare field's p95 above a frame).
    const unheld = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, "--disable-frame-rate-limit", "--disable-gpu-vsync"] });
    const rounds = await searchKeystrokes(unheld, full.url, distDir).finally(() => unheld.close());
    const keys = { app: rounds.app.flat(), floor: rounds.floor.flat() };
    const roundP95s = rounds.app.map((samples) => quantile(samples, 0.95));
    progress("browser: search keystrokes over 1,000 chats, frames at 60 Hz");
    const heldRounds = await searchKeystrokes(browser, full.url, distDir);
    const held = { app: heldRounds.app.flat(), floor: heldRounds.floor.flat() };
    return {
      metrics: {
        "browser.sidebar.render_ms_1000_chats": (fullRender + fullScroll) / emptyMs,
        "browser.sidebar.search_keystroke.p95_ms": median(roundP95s),
      },
      notes: {
        "browser.sidebar.render_ms_1000_chats": `ratio of (first page shown ${fullRender.toFixed(0)} ms + ${SCROLL_PAGES} pages scrolled in ${fullScroll.toFixed(0)} ms) with ${CHATS} chats to an empty list shown in ${emptyMs.toFixed(0)} ms, medians, navigation start to paint`,
        "browser.sidebar.search_keystroke.pooled_p95_ms": Number(quantile(keys.app, 0.95).toFixed(1)),
        "browser.sidebar.search_keystroke.p50_ms": Number(quantile(keys.app, 0.5).toFixed(1)),
        "browser.sidebar.search_keystroke.floor_p95_ms": Number(median(rounds.floor.map((samples) => quantile(samples, 0.95))).toFixed(1)),
        "browser.sidebar.search_keystroke.floor_p50_ms": Number(quantile(keys.floor, 0.5).toFixed(1)),
        "browser.sidebar.search_keystrokes": keys.app.length,
        "browser.sidebar.search_keystroke.vsync": `${SEARCH_ROUNDS} more rounds with frames at 60 Hz, where each key also waits for the next vsync (all keys pooled): p95 ${quantile(held.app, 0.95).toFixed(1)} ms (the bare field ${quantile(held.floor, 0.95).toFixed(1)}), p50 ${quantile(held.app, 0.5).toFixed(1)} ms (the bare field ${quantile(held.floor, 0.5).toFixed(1)})`,
      },
      spreads: { "browser.sidebar.search_keystroke.p95_ms": { min: Math.min(...roundP95s), max: Math.max(...roundP95s), rounds: roundP95s.length } },
    };
  } finally {
    await browser.close();
    await empty.close();
    await full.close();
    rmSync(emptyDir, { recursive: true, force: true });
    rmSync(fullDir, { recursive: true, force: true });
  }
}
