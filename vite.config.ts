import path from "node:path";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { postgresBinDir } from "./src/testing/host/postgres.ts";
import { serviceWorkerBuildId } from "./scripts/sw-build-id.ts";

const hostPort = Number(process.env.PARLEY_DEV_HOST_PORT ?? 8787);

/**
 * The host suite a second time with every test host on Postgres (PARLEY_TEST_STORE=postgres, one throwaway cluster
 * per run, a database per host). Left out, each for its reason:
 */
const SQLITE_ONLY = [
  // kill -9 mid-turn and PRAGMA integrity_check of the SQLite file in the data dir.
  "src/host/crash-points.test.ts",
  // a full tmpfs under the SQLite data dir and a fault-injecting wrapper around an SQLite store.
  "src/host/storage-faults.test.ts",
  // opening, corrupting, and migrating SQLite files; its Postgres half (store contract, migrations) already runs on its own cluster.
  "src/host/store.test.ts",
  // the cluster tests start their own Postgres (restarted under load, so it cannot be the shared one).
  "src/host/pg/**",
  // runs one SQLite host and three hosts on its own Postgres already.
  "src/integration/chaos.test.ts",
];
// The service worker is its own entry, written to /sw.js (its scope is the whole app) and never loaded by index.html, so
// it stays out of the initial bundle; scripts/sw-build-id.ts gives it the build's id.
const SERVICE_WORKER = "sw";
const WORKER_MODULES = [/[\\/]src[\\/]sw[\\/]/, /[\\/]src[\\/]protocol[\\/]push-services\.ts$/];

const postgresBin = postgresBinDir();
if (process.env.VITEST && postgresBin === null) {
  console.warn("node-postgres: skipped: no Postgres binaries (initdb, postgres) found; install Debian's postgresql to run the host suite on Postgres too");
}

export default defineConfig({
  plugins: [react(), serviceWorkerBuildId()],
  build: {
    outDir: "dist",
    sourcemap: false,
    // Browsers with modulepreload (Chromium, Firefox 115+, Safari 17+) preload the lazy chunks' imports; the rest load them when asked, without the polyfill's script.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { index: path.resolve(import.meta.dirname, "index.html"), [SERVICE_WORKER]: path.resolve(import.meta.dirname, "src/sw/sw.ts") },
      output: {
        entryFileNames: (chunk) => (chunk.name === SERVICE_WORKER ? "sw.js" : "assets/[name]-[hash].js"),
        // Everything the first screen imports statically is one chunk, however many lazy chunks share parts of it. The
        // worker's modules stay out of it (a worker script imports nothing): src/sw/ and what only the worker imports.
        codeSplitting: { groups: [{ name: "shell", tags: ["$initial"], test: (id) => !WORKER_MODULES.some((pattern) => pattern.test(id)) }] },
      },
    },
  },
  server: {
    host: "127.0.0.1",
    proxy: {
      "/api": { target: `http://127.0.0.1:${hostPort}`, ws: true, changeOrigin: false },
    },
  },
  test: {
    // A loaded machine (CI, or a suite beside other work) makes a host test take seconds; every wait is for a state.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          setupFiles: ["src/test/setup-waits.ts", "src/test/setup-locales.ts"],
          include: ["src/**/*.test.ts", "bench/**/*.test.ts", "scripts/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "dom",
          environment: "jsdom",
          include: ["src/**/*.test.tsx"],
          setupFiles: ["src/test/setup-waits.ts", "src/test/setup-locales.ts", "src/test/setup-dom.ts"],
        },
      },
      ...(postgresBin === null
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: "node-postgres",
                environment: "node",
                include: ["src/host/**/*.test.ts", "src/integration/**/*.test.ts"],
                exclude: SQLITE_ONLY,
                env: { PARLEY_TEST_STORE: "postgres" },
                setupFiles: ["src/test/setup-waits.ts"],
                globalSetup: ["src/testing/host/pg-global-setup.ts"],
              },
            },
          ]),
    ],
  },
});
