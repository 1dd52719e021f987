import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

/** Where `initdb` and `postgres` are: PARLEY_PG_BIN, /usr/local/bin, else the newest /usr/lib/postgresql/<n>/bin (Debian). Null when there are none. */
export function postgresBinDir(): string | null {
  const debian = existsSync("/usr/lib/postgresql")
    ? readdirSync("/usr/lib/postgresql")
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
        .map((name) => `/usr/lib/postgresql/${name}/bin`)
    : [];
  const candidates = [...(process.env.PARLEY_PG_BIN ? [process.env.PARLEY_PG_BIN] : []), "/usr/local/bin", ...debian];
  return candidates.find((dir) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "postgres"))) ?? null;
}

/** A throwaway Postgres cluster in a temp dir, listening on 127.0.0.1 only, trust auth, durability off (tests only). */
export interface TestPostgres {
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  /** A fresh, empty database in the cluster; resolves with its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown: clients are cut off) without removing its files. */
  stopServer(): Promise<void>;
  /** Starts it again on the same port and files. */
  startServer(): Promise<void>;
  /** Stops the server and removes the temp dir. */
  stop(): Promise<void>;
}

/** The uid and gid to run Postgres as: the `postgres` user when this process is root (Postgres refuses root), else ourselves. */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("postgres:"));
  if (!line) throw new Error("Postgres refuses to run as root and this machine has no postgres user (install Debian's postgresql package)");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/** Creates a fresh, empty database in the cluster at `adminUrl` (a name no other worker can pick) and resolves with its URL. */
export async function createDatabaseAt(adminUrl: string): Promise<string> {
  const name = `parley_test_${randomUUID().replaceAll("-", "")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by `createDatabaseAt`, cutting off any connection still open to it. */
export async function dropDatabaseAt(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^parley_test_[0-9a-f]{32}$/.test(name)) throw new Error(`not a test database: ${name}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`postgres exited with ${String(child.exitCode ?? child.signalCode)}\n${output()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${READY_TIMEOUT_MS} ms: ${(error as Error).message}\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** `initdb` into a temp dir and start `postgres` on a free loopback port. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error("no Postgres binaries (initdb, postgres) were found; install Debian's postgresql package");
  const user = runAs();
  const root = mkdtempSync(path.join(tmpdir(), "parley-pg-"));
  if (user) chownSync(root, user.uid, user.gid);
  const dataDir = path.join(root, "data");
  const ids = user ? { uid: user.uid, gid: user.gid } : {};
  await run(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], { ...ids, env: { ...process.env, LC_ALL: "C" } });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | null = null;
  let output = "";

  async function startServer() {
    output = "";
    const settings = ["listen_addresses=127.0.0.1", `unix_socket_directories=${root}`, "fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=300", "shared_buffers=32MB"];
    const started = spawn(path.join(bin!, "postgres"), ["-D", dataDir, "-p", String(port), ...settings.flatMap((setting) => ["-c", setting])], { ...ids, stdio: ["ignore", "pipe", "pipe"] });
    started.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child = started;
    await waitReady(url, started, () => output);
  }

  async function stopServer() {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGINT");
    const timer = setTimeout(() => running.kill("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  await startServer();
  return {
    port,
    url,
    createDatabase: () => createDatabaseAt(url),
    stopServer,
    startServer,
    async stop() {
      await stopServer();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
