import { expect, inject } from "vitest";
import { WebSocket } from "ws";
import { DownFrame, HeartbeatFrame } from "../../protocol/schemas";
import { createScriptedModel } from "../../host/models/scripted";
import { startServer, type RunningServer, type ServerOptions } from "../../host/server";
import { createDatabaseAt, dropDatabaseAt } from "./postgres";

/**
 * PARLEY_TEST_STORE picks the store of every test host that is not given one: `sqlite` (default) or `postgres`
 * (the node-postgres project: a fresh database on the run's one throwaway cluster, see pg-global-setup.ts).
 */
export const TEST_STORE = testStore(process.env.PARLEY_TEST_STORE);

function testStore(value: string | undefined): "sqlite" | "postgres" {
  if (value === undefined || value === "" || value === "sqlite") return "sqlite";
  if (value === "postgres") return "postgres";
  throw new Error(`PARLEY_TEST_STORE must be sqlite or postgres, not ${JSON.stringify(value)}`);
}

/** The login cookie a test host sets: named per port on SQLite, per cluster on Postgres (its hosts share one origin behind a proxy). */
export function loginCookieName(server: RunningServer): string {
  return TEST_STORE === "postgres" ? `parley_login_${server.hostId.slice(0, 8)}` : `parley_login_${server.port}`;
}

/** The store fields of a test host's `GET /api/health`: a Postgres host is a cluster of one. */
export function storeHealth(server: Pick<RunningServer, "hostId">): Record<string, unknown> {
  if (TEST_STORE === "sqlite") return { store: "sqlite" };
  return { store: "postgres", cluster: { id: server.hostId, instance: expect.any(String) as string, instances: 1, state: "ok" } };
}

/** With Postgres: the database of each data dir a test gave, so a host restarted on the same dir finds the same database. */
const databasesByDataDir = new Map<string, string>();

/**
 * The environment that gives a test host, in this process or in its own (src/testing/host/host-process.ts), the run's
 * store: nothing on SQLite (its PARLEY_DATA_DIR holds the database), a fresh database of the run's cluster on Postgres, the same one again for a data dir
 * seen before, so a process restarted on it finds what the last one wrote.
 */
export async function testStoreEnv(dataDir?: string): Promise<Record<string, string>> {
  if (TEST_STORE === "sqlite") return {};
  const admin = inject("parleyPostgresUrl");
  if (dataDir === undefined) return { PARLEY_DATABASE_URL: await createDatabaseAt(admin) };
  let databaseUrl = databasesByDataDir.get(dataDir);
  if (databaseUrl === undefined) {
    databaseUrl = await createDatabaseAt(admin);
    databasesByDataDir.set(dataDir, databaseUrl);
  }
  return { PARLEY_DATABASE_URL: databaseUrl };
}

/** A real host on 127.0.0.1:0 with an in-memory database and the scripted model, unless overridden. */
export async function startTestServer(overrides: Partial<ServerOptions> = {}): Promise<RunningServer> {
  const options: ServerOptions = { host: "127.0.0.1", port: 0, dataDir: ":memory:", model: createScriptedModel(), staticDir: "/nonexistent-parley-dist", ...overrides };
  if (TEST_STORE === "sqlite" || options.store !== undefined || options.databaseUrl !== undefined) return startServer(options);
  const admin = inject("parleyPostgresUrl");
  if (options.dataDir !== ":memory:") return startServer({ ...options, databaseUrl: (await testStoreEnv(options.dataDir)).PARLEY_DATABASE_URL! });
  // An in-memory database ends with its host: so does this one.
  const databaseUrl = await createDatabaseAt(admin);
  const server = await startServer({ ...options, databaseUrl }).catch(async (error: unknown) => {
    await dropDatabaseAt(admin, databaseUrl);
    throw error;
  });
  let dropped: Promise<void> | null = null;
  return {
    ...server,
    close() {
      dropped ??= server.close().then(() => dropDatabaseAt(admin, databaseUrl));
      return dropped;
    },
  };
}

export interface ApiResult {
  status: number;
  headers: Headers;
  body: unknown;
}

/** `fetch` against the host; JSON bodies are sent with `Content-Type: application/json`. */
export async function api(base: string, path: string, init: { method?: string; json?: unknown; headers?: Record<string, string>; body?: string } = {}): Promise<ApiResult> {
  const headers: Record<string, string> = { ...(init.json === undefined ? {} : { "content-type": "application/json" }), ...init.headers };
  const response = await fetch(base + path, {
    method: init.method ?? (init.json === undefined && init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
    redirect: "manual",
  });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get("content-type") ?? "").startsWith("application/json")) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body };
}

/** A real `ws` client on `/api/mux` that keeps every frame it receives, parsed with the protocol schema. */
export interface FrameClient {
  socket: WebSocket;
  frames: DownFrame[];
  /** Heartbeat frames received; they are not state, so they are not in `frames`. */
  heartbeats: number;
  /** Resolves with the first frame (already received or future) matching `predicate`. */
  waitFor<T extends DownFrame = DownFrame>(predicate: (frame: DownFrame, index: number) => boolean, label?: string): Promise<T>;
  /** Resolves when the session's turn has ended: a `session/upserted` with state idle after frame `from`. */
  waitIdle(sessionId: string, from: number): Promise<void>;
  /**
   * Resolves when a turn that started after frame `from` has ended: the session's first state other than idle after
   * `from`, then idle. For a mark taken before a message is posted, where an idle frame sent earlier (the chat's
   * creation, a mode set) may still be on its way when the mark is taken.
   */
  waitTurnEnd(sessionId: string, from: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

const WAIT_MS = 10_000;

export function connect(base: string, headers: Record<string, string> = {}): Promise<FrameClient> {
  const socket = new WebSocket(`${base.replace(/^http/, "ws")}/api/mux`, { headers });
  const frames: DownFrame[] = [];
  const listeners = new Set<() => void>();
  socket.on("message", (data: Buffer) => {
    const json: unknown = JSON.parse(data.toString("utf8"));
    if (HeartbeatFrame.safeParse(json).success) {
      client.heartbeats += 1;
      return;
    }
    frames.push(DownFrame.parse(json));
    for (const listener of [...listeners]) listener();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: reason.toString("utf8") })));
  const client: FrameClient = {
    socket,
    frames,
    heartbeats: 0,
    waitFor<T extends DownFrame>(predicate: (frame: DownFrame, index: number) => boolean, label = "a matching frame") {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const found = frames.find(predicate);
          if (!found) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found as T);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${label}; got ${JSON.stringify(frames.map((frame) => frame.type))}`));
        }, WAIT_MS);
        if (!check()) listeners.add(check);
      });
    },
    async waitIdle(sessionId, from) {
      await client.waitFor(
        (frame, index) => index >= from && frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.state === "idle",
        `session ${sessionId} to become idle`,
      );
    },
    async waitTurnEnd(sessionId, from) {
      const stateAt = (frame: DownFrame) => (frame.type === "session/upserted" && frame.session.id === sessionId ? frame.session.state : null);
      const started = await client.waitFor((frame, index) => index >= from && (stateAt(frame) ?? "idle") !== "idle", `a turn of session ${sessionId} to start`);
      const at = frames.indexOf(started);
      await client.waitFor((frame, index) => index > at && stateAt(frame) === "idle", `session ${sessionId} to become idle`);
    },
    closed,
    async close() {
      if (socket.readyState !== WebSocket.CLOSED) socket.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve(client));
    socket.once("unexpected-response", (_request, response) => reject(new Error(`upgrade refused with ${response.statusCode}`)));
    socket.once("error", reject);
  });
}

/** Creates a session and returns its id. */
export async function createSession(base: string, title?: string): Promise<string> {
  const result = await api(base, "/api/sessions", { json: title === undefined ? {} : { title } });
  return (result.body as { session: { id: string } }).session.id;
}

/** The hosts a test file starts and the sockets it opens, each socket returned once `synced` arrived; `closeAll` after each test. */
export function createTestHosts() {
  const servers: RunningServer[] = [];
  const clients: FrameClient[] = [];
  async function start(overrides: Partial<ServerOptions> = {}): Promise<RunningServer> {
    const server = await startTestServer(overrides);
    servers.push(server);
    return server;
  }
  async function open(url: string, headers: Record<string, string> = {}): Promise<FrameClient> {
    const client = await connect(url, headers);
    clients.push(client);
    await client.waitFor((frame) => frame.type === "synced");
    return client;
  }
  return {
    start,
    open,
    /** A host and one synced socket on it. */
    async startSynced(overrides: Partial<ServerOptions> = {}): Promise<{ server: RunningServer; client: FrameClient }> {
      const server = await start(overrides);
      return { server, client: await open(server.url) };
    },
    /** Closes one host now (as a restart does); `closeAll` will not close it again. */
    async stop(server: RunningServer): Promise<void> {
      const at = servers.indexOf(server);
      if (at >= 0) servers.splice(at, 1);
      await server.close();
    },
    async closeAll(): Promise<void> {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await Promise.all(servers.splice(0).map((server) => server.close()));
    },
  };
}

/** Calls `read` every 100 ms until it gives a value (a throw counts as none yet); rejects naming `label` after `timeoutMs`. */
export async function until<T>(read: () => Promise<T | undefined>, label: string, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
