import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import type { DownFrame } from "../protocol/schemas";
import type { Checks } from "./load-checks";
import { createMux, type ConnectionStatus, type MuxConnection, type MuxSocketConstructor } from "./mux";
import { manualTimers } from "./testing/manual-timers";

// The frame checks load in a chunk of their own; here their loading is held, failed and released by the test.
const loading = vi.hoisted(() => ({
  loaded: undefined as Checks | undefined,
  waiting: [] as { resolve: (checks: Checks) => void; reject: (error: Error) => void }[],
}));
vi.mock("./load-checks", () => ({
  loadedChecks: () => loading.loaded,
  loadChecks: () => new Promise<Checks>((resolve, reject) => loading.waiting.push({ resolve, reject })),
}));

const HELLO = { type: "hello", protocol: 2, hostId: "host-a" } as const;
const REQUESTED = {
  type: "question/requested",
  rpcId: "rpc-1",
  sessionId: "s-1",
  questions: [{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm" }, { label: "npm" }] }],
  createdAt: "2026-11-30T10:00:00.000Z",
} as const;
const SYNCED = { type: "synced" } as const;

const servers: WebSocketServer[] = [];
const muxes: MuxConnection[] = [];

afterEach(async () => {
  muxes.splice(0).forEach((mux) => mux.close());
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  loading.loaded = undefined;
  loading.waiting.length = 0;
});

async function serve(first: readonly object[] = [HELLO, { type: "heartbeat" }, { type: "nonsense" }, REQUESTED, SYNCED]): Promise<{ url: string; connections: () => number }> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/api/mux" });
  servers.push(server);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  let count = 0;
  server.on("connection", (socket) => {
    count += 1;
    for (const frame of first) socket.send(JSON.stringify(frame));
  });
  return { url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/api/mux`, connections: () => count };
}

function open(url: string, watchdogTimers?: ReturnType<typeof manualTimers>["timers"]) {
  const frames: DownFrame[] = [];
  const statuses: ConnectionStatus[] = [];
  const mux = createMux({
    url,
    WebSocket: WebSocket as unknown as MuxSocketConstructor,
    onFrame: (frame) => frames.push(frame),
    onStatus: (status) => statuses.push(status),
    random: () => 0,
    subscribeWake: () => () => undefined,
    ...(watchdogTimers ? { watchdogTimers } : {}),
  });
  muxes.push(mux);
  return { frames, statuses };
}

const realChecks = () => vi.importActual<Checks>("./checks");

describe("frames that come before the frame checks have loaded", () => {
  it("are held, then checked and delivered in the order they came once the checks are in", async () => {
    const { url } = await serve();
    const { frames, statuses } = open(url);
    await vi.waitFor(() => expect(loading.waiting).toHaveLength(1));
    await vi.waitFor(() => expect(statuses).toEqual(["connecting", "online"]));
    expect(frames).toEqual([]);
    const checks = await realChecks();
    loading.loaded = checks;
    loading.waiting[0]!.resolve(checks);
    await vi.waitFor(() => expect(frames).toEqual([HELLO, REQUESTED, SYNCED]));
    expect(loading.waiting).toHaveLength(1);
  });

  it("drop the socket when the checks fail to load, and the next connection asks for them again", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { url, connections } = await serve();
    const { frames, statuses } = open(url);
    await vi.waitFor(() => expect(loading.waiting).toHaveLength(1));
    loading.waiting[0]!.reject(new Error("chunk failed"));
    await vi.waitFor(() => expect(connections()).toBe(2));
    await vi.waitFor(() => expect(loading.waiting).toHaveLength(2));
    expect(statuses.slice(0, 4)).toEqual(["connecting", "online", "offline", "connecting"]);
    expect(warn).toHaveBeenCalledWith("mux: the frame checks did not load; reconnecting to try again", new Error("chunk failed"));
    const checks = await realChecks();
    loading.loaded = checks;
    loading.waiting[1]!.resolve(checks);
    await vi.waitFor(() => expect(frames).toEqual([HELLO, REQUESTED, SYNCED]));
  });

  it("watch the socket for silence by the heartbeat a held hello set, once it is delivered", async () => {
    const watchdog = manualTimers();
    const { url } = await serve([{ ...HELLO, heartbeatMs: 60_000 }, SYNCED]);
    const { frames } = open(url, watchdog.timers);
    await vi.waitFor(() => expect(loading.waiting).toHaveLength(1));
    // Connecting (10 s), then silence by the default heartbeat of 15 s (on open and on each frame) while the hello waits for the checks.
    await vi.waitFor(() => expect(watchdog.delays).toEqual([10_000, 37_500, 37_500, 37_500]));
    const checks = await realChecks();
    loading.loaded = checks;
    loading.waiting[0]!.resolve(checks);
    await vi.waitFor(() => expect(frames).toEqual([{ ...HELLO, heartbeatMs: 60_000 }, SYNCED]));
    expect(watchdog.delays).toEqual([10_000, 37_500, 37_500, 37_500, 150_000]);
    expect(watchdog.pending.size).toBe(1);
  });
});
