import { expect } from "@playwright/test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { removeDataDir, startHostProcess, type HostProcess } from "../src/testing/host/host-process";
import { TEST_MCP_STDIO_ARGS } from "../src/testing/host/test-mcp-server";

/** A real Parley host process for one test, on a free loopback port with its own data dir. */
export interface TestHost {
  url: string;
  dataDir: string;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends the process `signal` without waiting (SIGSTOP freezes it: it takes connections and answers none; SIGCONT thaws it). */
  signal(signal: NodeJS.Signals): void;
  /** Stops and starts again on the same data dir and port. */
  restart(): Promise<void>;
  /** Stops and removes the data dir. */
  dispose(): Promise<void>;
}

/** Starts a host; `env` adds to the scripted-model defaults. */
export async function startHost(env: NodeJS.ProcessEnv = {}): Promise<TestHost> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-"));
  let running: HostProcess = await startHostProcess({ dataDir, env });
  const host: TestHost = {
    get url() {
      return running.url;
    },
    dataDir,
    async stop() {
      await running.kill("SIGTERM");
    },
    signal(signal) {
      running.child.kill(signal);
    },
    async restart() {
      await host.stop();
      running = await startHostProcess({ dataDir, env, port: running.port });
    },
    async dispose() {
      await host.stop();
      removeDataDir(dataDir);
    },
  };
  return host;
}

/** A host whose agent has the test MCP server over stdio as `server`; resolves once health says it is ready. */
export async function startHostWithTestMcp(server: string): Promise<TestHost> {
  const configDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-mcp-"));
  const file = path.join(configDir, "parley.mcp.json");
  writeFileSync(file, JSON.stringify({ mcpServers: { [server]: { command: process.execPath, args: TEST_MCP_STDIO_ARGS } } }));
  const host = await startHost({ PARLEY_MCP_CONFIG: file });
  const dispose = host.dispose;
  host.dispose = async () => {
    await dispose();
    rmSync(configDir, { recursive: true, force: true });
  };
  await expect
    .poll(async () => {
      const health = (await (await fetch(`${host.url}/api/health`)).json()) as { mcp?: { name: string; state: string }[] };
      return health.mcp?.map((entry) => [entry.name, entry.state]);
    }, { timeout: 20_000 })
    .toEqual([[server, "ready"]]);
  return host;
}
