import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A real Parley host process for one test, on a free loopback port with its own data dir. */
export interface TestHost {
  url: string;
  dataDir: string;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Stops and starts again on the same data dir and port. */
  restart(): Promise<void>;
  /** Stops and removes the data dir. */
  dispose(): Promise<void>;
}

const TSX = path.resolve("node_modules/.bin/tsx");
const MAIN = path.resolve("src/host/main.ts");

function launch(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [MAIN], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let buffered = "";
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`host did not start in time\n${stderr}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { event?: string; url?: string };
        if (entry.event === "listening" && entry.url) {
          clearTimeout(timer);
          resolve({ child, url: entry.url });
        }
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code} before listening\n${stderr}`));
    });
  });
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Starts a host; `env` adds to the scripted-model defaults. */
export async function startHost(env: NodeJS.ProcessEnv = {}): Promise<TestHost> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-"));
  const baseEnv = { HOST: "127.0.0.1", PORT: "0", PARLEY_DATA_DIR: dataDir, PARLEY_MODEL: "scripted", ...env };
  let running = await launch(baseEnv);
  const port = new URL(running.url).port;
  const host: TestHost = {
    get url() {
      return running.url;
    },
    dataDir,
    async stop() {
      running.child.kill("SIGTERM");
      await waitForExit(running.child);
    },
    async restart() {
      await host.stop();
      running = await launch({ ...baseEnv, PORT: port });
    },
    async dispose() {
      await host.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return host;
}
