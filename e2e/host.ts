import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { removeDataDir, startHostProcess, type HostProcess } from "../src/host/testing/host-process";

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
