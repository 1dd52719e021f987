import { defineConfig } from "@playwright/test";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    },
    viewport: { width: 1280, height: 800 },
    // The app's service worker takes over pages and keeps requests open to Playwright's eye (networkidle never comes);
    // the install and push specs open their own persistent contexts, where it runs.
    serviceWorkers: "block",
    trace: "off",
  },
});
