import { chromium, expect, test, type Page } from "@playwright/test";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { CHROMIUM_ARGS } from "../playwright.config";
import { startHost, type TestHost } from "./host";

// The app's worker is what this spec checks; the project blocks it elsewhere.
test.use({ serviceWorkers: "allow" });

let host: TestHost;

test.beforeEach(async () => {
  host = await startHost();
});

test.afterEach(async () => {
  await host.dispose();
});

async function workerReady(page: Page): Promise<string> {
  return page.evaluate(async () => (await navigator.serviceWorker.ready).active!.scriptURL);
}

test("the manifest parses and Chromium reports no installability errors; the worker registers", async () => {
  // Chromium offers no install in an incognito profile, which every new Playwright context is: use a profile on disk.
  const profile = mkdtempSync(path.join(tmpdir(), "parley-profile-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(host.url);
    await checkInstallable(page);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

async function checkInstallable(page: Page) {
  expect(await workerReady(page)).toBe(`${host.url}/sw.js`);
  const cdp = await page.context().newCDPSession(page);
  const manifest = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[]; data?: string };
  expect(manifest.url).toBe(`${host.url}/manifest.webmanifest`);
  expect(manifest.errors).toEqual([]);
  const parsed = JSON.parse(manifest.data ?? "{}") as { name: string; short_name: string; display: string; icons: { purpose?: string }[] };
  expect(parsed).toMatchObject({ name: "Parley", short_name: "Parley", display: "standalone" });
  expect(parsed.icons.some((icon) => icon.purpose === "maskable")).toBe(true);
  await expect.poll(async () => ((await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: unknown[] }).installabilityErrors).toEqual([]);
}

test("with the host stopped and the page offline, a reload opens the cached shell saying the host is unreachable", async ({ page, context }) => {
  await page.goto(host.url);
  await workerReady(page);
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("parley-shell-")).length)).toBe(1);
  await host.stop();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText("Parley's host is unreachable", { exact: false })).toBeVisible();
  await context.setOffline(false);
  await host.restart();
  await expect(page.getByText("Parley's host is unreachable", { exact: false })).toBeHidden({ timeout: 30_000 });
});

/** A reverse proxy on 127.0.0.1 in front of the host, which answers 502 once `down` is set, as a proxy does when its upstream is gone. */
async function startProxy(upstream: string) {
  const target = new URL(upstream);
  const state = { down: false, hang: false };
  const server: Server = createServer((request, response) => {
    // A host on a network out of reach: the connection is made, and no answer ever comes.
    if (state.hang) return;
    if (state.down) {
      response.writeHead(502, { "content-type": "text/html" }).end("<h1>502 Bad Gateway</h1>");
      return;
    }
    const outgoing = forward({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    outgoing.on("error", () => response.writeHead(502).end());
    request.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state, close };
}

test("behind a reverse proxy whose host is down (502), a reload opens the cached shell saying the host is unreachable", async ({ page }) => {
  const proxy = await startProxy(host.url);
  try {
    await page.goto(proxy.url);
    await workerReady(page);
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("parley-shell-")).length)).toBe(1);
    proxy.state.down = true;
    await page.reload();
    await expect(page.getByText("Parley's host is unreachable", { exact: false })).toBeVisible();
    await expect(page.getByText("502 Bad Gateway")).toHaveCount(0);
  } finally {
    await proxy.close();
  }
});

test("a host that never answers (on a network out of reach) opens the cached shell within seconds, saying the host is unreachable", async ({ page }) => {
  const proxy = await startProxy(host.url);
  try {
    await page.goto(proxy.url);
    await workerReady(page);
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("parley-shell-")).length)).toBe(1);
    proxy.state.hang = true;
    // The browser's own wait is far longer than the worker's 4 s: without it the reload outlasts this timeout.
    await page.reload({ timeout: 20_000 });
    await expect(page.getByText("Parley's host is unreachable", { exact: false })).toBeVisible({ timeout: 30_000 });
  } finally {
    await proxy.close();
  }
});
