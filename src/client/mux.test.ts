import { createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { createMux, muxUrl, type ConnectionStatus, type MuxConnection, type MuxSocketConstructor } from "./mux";
import type { DownFrame } from "../protocol/schemas";
import { manualTimers } from "./testing/manual-timers";

const HELLO = { type: "hello", protocol: 2, hostId: "host-a" } as const;
const SYNCED = { type: "synced" } as const;

const servers: WebSocketServer[] = [];
const muxes: MuxConnection[] = [];

function startServer(port = 0): Promise<{ server: WebSocketServer; url: string }> {
  return new Promise((resolve, reject) => {
    const server = new WebSocketServer({ host: "127.0.0.1", port, path: "/api/mux" });
    servers.push(server);
    server.once("error", reject);
    server.once("listening", () => {
      const address = server.address() as { port: number };
      resolve({ server, url: `ws://127.0.0.1:${address.port}/api/mux` });
    });
  });
}

function stopServer(server: WebSocketServer): Promise<void> {
  for (const client of server.clients) client.terminate();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

function onEachConnection(server: WebSocketServer, send: (socket: WebSocket) => void) {
  server.on("connection", (socket) => send(socket));
}

interface Recorder {
  frames: DownFrame[];
  statuses: ConnectionStatus[];
}

function open(url: string, extra: Partial<Pick<Parameters<typeof createMux>[0], "random" | "timers" | "watchdogTimers" | "subscribeWake">> = {}) {
  const recorder: Recorder = { frames: [], statuses: [] };
  const mux = createMux({
    url,
    WebSocket: WebSocket as unknown as MuxSocketConstructor,
    onFrame: (frame) => recorder.frames.push(frame),
    onStatus: (status) => recorder.statuses.push(status),
    random: extra.random ?? (() => 0),
    timers: extra.timers,
    watchdogTimers: extra.watchdogTimers,
    subscribeWake: extra.subscribeWake ?? (() => () => undefined),
  });
  muxes.push(mux);
  return { mux, recorder };
}

afterEach(async () => {
  muxes.splice(0).forEach((mux) => mux.close());
  await Promise.all(servers.splice(0).map((server) => stopServer(server).catch((error: Error) => expect(error.message).toMatch(/not running/))));
  vi.restoreAllMocks();
});

describe("muxUrl", () => {
  it("uses ws for an http page and wss for an https page, on the page's own host", () => {
    expect(muxUrl({ protocol: "http:", host: "127.0.0.1:8787" })).toBe("ws://127.0.0.1:8787/api/mux");
    expect(muxUrl({ protocol: "https:", host: "parley.example" })).toBe("wss://parley.example/api/mux");
  });
});

describe("createMux against a real ws server", () => {
  it("reports connecting then online and delivers valid frames in order", async () => {
    const { server, url } = await startServer();
    const request = {
      type: "question/requested",
      rpcId: "rpc-1",
      sessionId: "s-1",
      questions: [{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm" }, { label: "npm" }] }],
      createdAt: "2026-11-30T10:00:00.000Z",
    };
    onEachConnection(server, (socket) => {
      socket.send(JSON.stringify(HELLO));
      socket.send(JSON.stringify(request));
      socket.send(JSON.stringify(SYNCED));
    });
    const { recorder } = open(url);
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(3));
    expect(recorder.frames).toEqual([HELLO, request, SYNCED]);
    expect(recorder.statuses).toEqual(["connecting", "online"]);
  });

  it("drops a frame that is not JSON, not a known frame or binary, warns, and keeps delivering", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { server, url } = await startServer();
    onEachConnection(server, (socket) => {
      socket.send("{not json");
      socket.send(JSON.stringify({ type: "question/requested", rpcId: "rpc-1" }));
      socket.send(JSON.stringify({ type: "made/up" }));
      socket.send(Buffer.from([1, 2, 3]));
      socket.send(JSON.stringify(HELLO));
    });
    const { recorder } = open(url);
    await vi.waitFor(() => expect(recorder.frames).toEqual([HELLO]));
    expect(warn).toHaveBeenCalledTimes(4);
    expect(recorder.statuses).toEqual(["connecting", "online"]);
  });

  it("reconnects after the server drops the socket and reports offline in between", async () => {
    const { server, url } = await startServer();
    let connections = 0;
    onEachConnection(server, (socket) => {
      connections += 1;
      socket.send(JSON.stringify({ ...HELLO, hostId: `host-${connections}` }));
      if (connections === 1) setTimeout(() => socket.terminate(), 20);
    });
    const { recorder } = open(url);
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(2));
    expect(recorder.frames).toEqual([
      { ...HELLO, hostId: "host-1" },
      { ...HELLO, hostId: "host-2" },
    ]);
    expect(recorder.statuses).toEqual(["connecting", "online", "offline", "connecting", "online"]);
  });

  it("backs off with growing jittered delays while the host is down and resets them after a hello", async () => {
    const { server, url } = await startServer();
    const port = Number(new URL(url).port);
    onEachConnection(server, (socket) => socket.send(JSON.stringify(HELLO)));
    const clock = manualTimers();
    const { recorder } = open(url, { random: () => 0.5, timers: clock.timers });
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(1));

    await stopServer(server);
    await vi.waitFor(() => expect(clock.pending.size).toBe(1));
    for (let failure = 1; failure < 4; failure++) {
      clock.fireAll();
      await vi.waitFor(() => expect(clock.pending.size).toBe(1));
    }
    expect(clock.delays).toEqual([250, 500, 1000, 2000]);

    const restarted = await startServer(port);
    onEachConnection(restarted.server, (socket) => {
      socket.send(JSON.stringify(HELLO));
      setTimeout(() => socket.terminate(), 20);
    });
    clock.fireAll();
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(2));
    await vi.waitFor(() => expect(clock.delays).toHaveLength(5));
    expect(clock.delays).toEqual([250, 500, 1000, 2000, 250]);
  });

  /** A mux whose host is down, waiting on its first manual reconnect timer; `restart` brings back a host that says hello on the same port. */
  async function openWhileHostDown(extra: Partial<Pick<Parameters<typeof createMux>[0], "subscribeWake">> = {}) {
    const { server, url } = await startServer();
    const port = Number(new URL(url).port);
    await stopServer(server);
    const clock = manualTimers();
    const opened = open(url, { ...extra, timers: clock.timers });
    await vi.waitFor(() => expect(clock.pending.size).toBe(1));
    const restart = async () => {
      const restarted = await startServer(port);
      onEachConnection(restarted.server, (socket) => socket.send(JSON.stringify(HELLO)));
    };
    /** The reconnect happened without waiting out the pending timer. */
    const expectReconnectedAtOnce = async () => {
      await vi.waitFor(() => expect(opened.recorder.frames).toEqual([HELLO]));
      expect(clock.pending.size).toBe(0);
      expect(opened.recorder.statuses).toEqual(["connecting", "offline", "connecting", "online"]);
    };
    return { ...opened, restart, expectReconnectedAtOnce };
  }

  it("retries at once on a wake-up instead of waiting out the backoff", async () => {
    let wake: () => void = () => undefined;
    const subscribeWake = (callback: () => void) => {
      wake = callback;
      return () => undefined;
    };
    const { recorder, restart, expectReconnectedAtOnce } = await openWhileHostDown({ subscribeWake });
    expect(recorder.statuses).toEqual(["connecting", "offline"]);
    await restart();
    wake();
    await expectReconnectedAtOnce();
  });

  it("retries at once on retryNow, the offline banner's button", async () => {
    const { mux, restart, expectReconnectedAtOnce } = await openWhileHostDown();
    await restart();
    mux.retryNow();
    await expectReconnectedAtOnce();
  });

  it("ignores a wake-up while a socket is already open", async () => {
    const { server, url } = await startServer();
    onEachConnection(server, (socket) => socket.send(JSON.stringify(HELLO)));
    let wake: () => void = () => undefined;
    const { recorder } = open(url, {
      subscribeWake: (callback) => {
        wake = callback;
        return () => undefined;
      },
    });
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(1));
    wake();
    wake();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.clients.size).toBe(1);
    expect(recorder.statuses).toEqual(["connecting", "online"]);
  });

  it("reports nothing after close, so a stale connection cannot overwrite a newer one (StrictMode remount)", async () => {
    const { server, url } = await startServer();
    onEachConnection(server, (socket) => socket.send(JSON.stringify(HELLO)));
    const shared: ConnectionStatus[] = [];
    const frames: DownFrame[] = [];
    const mount = () =>
      createMux({
        url,
        WebSocket: WebSocket as unknown as MuxSocketConstructor,
        onFrame: (frame) => frames.push(frame),
        onStatus: (status) => shared.push(status),
        random: () => 0,
        subscribeWake: () => () => undefined,
      });
    const first = mount();
    first.close();
    const second = mount();
    muxes.push(second);
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    await vi.waitFor(() => expect(server.clients.size).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shared).toEqual(["connecting", "connecting", "online"]);
    expect(second.status).toBe("online");
    expect(first.status).toBe("connecting");
  });

  it("stops reconnecting once closed", async () => {
    const { server, url } = await startServer();
    let connections = 0;
    onEachConnection(server, (socket) => {
      connections += 1;
      socket.send(JSON.stringify(HELLO));
    });
    const { mux, recorder } = open(url);
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(1));
    mux.close();
    await vi.waitFor(() => expect(server.clients.size).toBe(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connections).toBe(1);
    expect(recorder.statuses).toEqual(["connecting", "online"]);
  });
});

describe("createMux watchdog (docs/protocol.md, rule mux-heartbeat)", () => {
  function openWatched(url: string) {
    const watchdog = manualTimers();
    const clock = manualTimers();
    return { ...open(url, { timers: clock.timers, watchdogTimers: watchdog.timers }), watchdog, clock };
  }

  it("mux-heartbeat: drops a socket silent for 2.5 of the host's heartbeat intervals, goes offline and reconnects with the backoff", async () => {
    const { server, url } = await startServer();
    let connections = 0;
    onEachConnection(server, (socket) => {
      connections += 1;
      socket.send(JSON.stringify({ ...HELLO, heartbeatMs: 1000 }));
    });
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { recorder, watchdog, clock } = openWatched(url);
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(1));
    expect(watchdog.delays).toEqual([10_000, 37_500, 2_500]);
    expect(watchdog.pending.size).toBe(1);
    watchdog.fireAll();
    expect(recorder.statuses).toEqual(["connecting", "online", "offline"]);
    expect(clock.delays).toEqual([0]);
    clock.fireAll();
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(2));
    expect(connections).toBe(2);
    expect(recorder.statuses).toEqual(["connecting", "online", "offline", "connecting", "online"]);
  });

  it("mux-heartbeat: heartbeats keep a quiet socket alive and never reach the store", async () => {
    const { server, url } = await startServer();
    const sockets: WebSocket[] = [];
    onEachConnection(server, (socket) => {
      sockets.push(socket);
      socket.send(JSON.stringify({ ...HELLO, heartbeatMs: 1000 }));
    });
    const { recorder, watchdog } = openWatched(url);
    await vi.waitFor(() => expect(recorder.frames).toHaveLength(1));
    sockets[0]!.send(JSON.stringify({ type: "heartbeat" }));
    sockets[0]!.send(JSON.stringify({ type: "heartbeat" }));
    await vi.waitFor(() => expect(watchdog.delays).toHaveLength(5));
    expect(watchdog.delays.slice(2)).toEqual([2_500, 2_500, 2_500]);
    expect(recorder.frames).toEqual([{ ...HELLO, heartbeatMs: 1000 }]);
    expect(recorder.statuses).toEqual(["connecting", "online"]);
  });

  it("gives up a socket stuck connecting after 10 s and retries with the backoff", async () => {
    const held: Socket[] = [];
    const blackHole = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", () => resolve()));
    const port = (blackHole.address() as { port: number }).port;
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const { recorder, watchdog, clock } = openWatched(`ws://127.0.0.1:${port}/api/mux`);
      await vi.waitFor(() => expect(held).toHaveLength(1));
      expect(watchdog.delays).toEqual([10_000]);
      watchdog.fireAll();
      expect(recorder.statuses).toEqual(["connecting", "offline"]);
      expect(clock.delays).toEqual([0]);
    } finally {
      held.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => blackHole.close(() => resolve()));
    }
  });
});
