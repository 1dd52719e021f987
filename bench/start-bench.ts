import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { descendants, rssMb } from "./proc";
import { median, progress } from "./stats";

const root = path.resolve(import.meta.dirname, "..");
const ROUNDS = 3;
const SETTLE_MS = 3_000;
const START_LIMIT_MS = 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_LIMIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode} before it answered`);
    const answered = await fetch(`${url}/api/health`).then((response) => response.ok, () => false);
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no health answer from ${url} within ${START_LIMIT_MS} ms`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    for (const id of descendants(child.pid!)) process.kill(id, "SIGTERM");
    child.kill("SIGTERM");
  });
}

/** One start through npm: milliseconds to the first health answer, and the resident memory of everything npm started once settled. */
async function startOnce(script: string[], withMemory: boolean): Promise<{ ms: number; rssMb: number; processes: number }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-bench-start-"));
  const started = performance.now();
  const child = spawn("npm", script, { cwd: root, stdio: "ignore", env: { ...process.env, PORT: String(port), PARLEY_DATA_DIR: dataDir } });
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, child);
    const ms = performance.now() - started;
    if (!withMemory) return { ms, rssMb: 0, processes: 0 };
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    // npm itself aside: what it started is what `npm start` costs.
    const spawned = descendants(child.pid!);
    return { ms, rssMb: spawned.reduce((sum, id) => sum + rssMb(id), 0), processes: spawned.length };
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npm start` (app and host already built) against a bare HTTP server started by `npm run`, interleaved, median of each. */
export async function startMetrics(): Promise<{ metrics: Record<string, number>; notes: Record<string, string | number> }> {
  progress("start: building the app and the host once, so each start measures starting");
  const { buildApp, buildHost } = (await import(path.join(root, "scripts/build.mjs"))) as { buildApp(): void; buildHost(): void };
  buildApp();
  buildHost();
  const parley: number[] = [];
  const bare: number[] = [];
  const memory: number[] = [];
  let processes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    progress(`start: round ${round + 1} of ${ROUNDS}`);
    const host = await startOnce(["start"], true);
    parley.push(host.ms);
    memory.push(host.rssMb);
    processes = host.processes;
    bare.push((await startOnce(["run", "--silent", "bench:bare-server"], false)).ms);
  }
  return {
    metrics: {
      "host.start.ratio": median(parley) / median(bare),
      "host.start.ms": median(parley),
      "host.idle_rss_mb": median(memory),
    },
    notes: {
      "host.start": `npm start ${parley.map(Math.round).join(", ")} ms; bare server ${bare.map(Math.round).join(", ")} ms; ${processes} process(es) under npm`,
    },
  };
}
