import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const MAIN = path.resolve("src/host/main.ts");
const START_TIMEOUT_MS = 30_000;

/** A real `src/host/main.ts` process on a loopback port, with its JSON log lines kept. */
export interface HostProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** Every JSON line the process wrote to stdout, parsed. */
  readonly logs: Record<string, unknown>[];
  stderr(): string;
  /** Resolves with the exit code or signal once the process has exited. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Sends `signal` and waits for the exit; resolves with the exit code or signal. */
  kill(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals | null>;
}

export interface HostProcessOptions {
  env?: NodeJS.ProcessEnv;
  /** Reuse a data dir (for restarts); a fresh temp dir otherwise. */
  dataDir?: string;
  port?: number;
}

/** Starts a host process and resolves once it logs `listening`; rejects with its stderr if it exits first. */
export function startHostProcess(options: HostProcessOptions = {}): Promise<HostProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "parley-host-"));
  const env = { ...process.env, HOST: "127.0.0.1", PORT: String(options.port ?? 0), PARLEY_DATA_DIR: dataDir, PARLEY_MODEL: "scripted", ...options.env };
  // One process (node with tsx's loader, not the tsx wrapper), so SIGKILL reaches the host itself.
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], { env, stdio: ["ignore", "pipe", "pipe"] });
  const logs: Record<string, unknown>[] = [];
  let stderr = "";
  let buffered = "";
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`host did not start within ${START_TIMEOUT_MS} ms\n${stderr}`));
    }, START_TIMEOUT_MS);
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.event !== "listening" || typeof entry.url !== "string") continue;
        clearTimeout(timer);
        const url = entry.url;
        resolve({
          url,
          port: Number(new URL(url).port),
          dataDir,
          child,
          exited,
          logs,
          stderr: () => stderr,
          alive: () => child.exitCode === null && child.signalCode === null,
          async kill(signal = "SIGTERM") {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${String(code)} before listening\n${stderr}`));
    });
  });
}

/** Removes a data dir made by `startHostProcess`. */
export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}
