import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { HEARTBEAT_INTERVAL_MS, LIMITS, PROTOCOL_VERSION, type DownFrame, type HeartbeatFrame } from "../../protocol/schemas";
import { checkFence, hasManyHosts, type FenceOptions } from "../fence/fence";
import type { Logger } from "../log";
import { parseRequestTarget } from "../fence/request-target";

export const PING_INTERVAL_MS = 30_000;
const CLOSE_GRACE_MS = 1_000;

export interface DownlinkOptions {
  hostId: string;
  fence: FenceOptions;
  /** Every pending `question/requested` frame, oldest first. */
  replay(): DownFrame[];
  log: Logger;
  pingIntervalMs?: number;
  /** How often every socket gets a heartbeat frame; defaults to HEARTBEAT_INTERVAL_MS. */
  heartbeatIntervalMs?: number;
  /** Whether upgrades are taken now; a cluster host that lost its database answers 503 so the browser tries another. */
  accepting?(): boolean;
  /** Awaited before a socket opens: in a cluster, until this host's own frames so far are written, so its replay holds its own questions. */
  beforeOpen?(): Promise<void>;
}

/** The downlink: one WebSocket per tab at `/api/mux`, host → browser only. */
export interface Downlink {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  broadcast(frame: DownFrame): void;
  /**
   * Runs `work`, holding what is broadcast during it: each open socket gets those frames in one write, in order, when
   * `work` returns (before `hold` does). A burst is synchronous, so nothing else can be written between.
   */
  hold(work: () => void): void;
  /** Closes every open socket with 1012 (service restart): the browsers reconnect, through a proxy to a healthy host. */
  disconnectAll(reason: string): void;
  /** Closes every socket with 1001 and stops accepting. */
  close(): Promise<void>;
}

const STATUS_TEXT = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 429: "Too Many Requests", 503: "Service Unavailable" } as const;
type RefusalStatus = keyof typeof STATUS_TEXT;

/** Writes the refusal, then destroys the socket: a peer that resets or never reads cannot keep it. */
function refuse(socket: Duplex, status: RefusalStatus) {
  if (socket.destroyed) return;
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

export function createDownlink(options: DownlinkOptions): Downlink {
  const wss = new WebSocketServer({ noServer: true, maxPayload: LIMITS.socketPayloadBytes });
  const alive = new WeakMap<WebSocket, boolean>();
  /** Each socket's connection, corked around a burst. */
  const connections = new WeakMap<WebSocket, Duplex>();
  let closing = false;

  const ping = setInterval(() => {
    for (const socket of wss.clients) {
      if (!alive.get(socket)) {
        options.log({ event: "mux/terminated", reason: "missed pong" });
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, options.pingIntervalMs ?? PING_INTERVAL_MS);
  ping.unref();
  const heartbeatMs = options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS;
  const heartbeatData = JSON.stringify({ type: "heartbeat" } satisfies HeartbeatFrame);
  const heartbeat = setInterval(() => {
    for (const socket of wss.clients) if (socket.readyState === socket.OPEN) socket.send(heartbeatData);
  }, heartbeatMs);
  heartbeat.unref();

  function onConnection(socket: WebSocket, connection: Duplex) {
    alive.set(socket, true);
    connections.set(socket, connection);
    socket.on("pong", () => alive.set(socket, true));
    socket.on("message", () => socket.close(1008, "downlink only"));
    socket.on("error", (error) => options.log({ event: "mux/error", error: error.name }));
    socket.on("close", (code) => options.log({ event: "mux/closed", code, sockets: wss.clients.size }));
    // Hello, the replay and synced leave in one write rather than one each (a thousand pending questions, a thousand writes).
    connection.cork();
    try {
      socket.send(JSON.stringify({ type: "hello", protocol: PROTOCOL_VERSION, hostId: options.hostId, heartbeatMs } satisfies DownFrame));
      for (const frame of options.replay()) socket.send(JSON.stringify(frame));
      socket.send(JSON.stringify({ type: "synced" } satisfies DownFrame));
    } finally {
      connection.uncork();
    }
    options.log({ event: "mux/opened", sockets: wss.clients.size });
  }

  return {
    handleUpgrade(request, socket, head) {
      socket.on("error", (error: NodeJS.ErrnoException) => options.log({ event: "mux/socket-error", code: error.code ?? error.name }));
      const target = parseRequestTarget(request.url);
      if (target === null || hasManyHosts(request)) return refuse(socket, 400);
      if (target.pathname !== "/api/mux") return refuse(socket, 404);
      const opening = async () => {
        // A login is not rotated here: the upgrade's answer cannot be relied on to hand the new one to the page.
        const verdict = await checkFence(request, options.fence, false);
        if (verdict.ok && !closing && options.accepting?.() !== false) await options.beforeOpen?.();
        return verdict;
      };
      opening().then(
        (verdict) => {
          if (!verdict.ok) {
            options.log({ event: "mux/refused", status: verdict.status });
            return refuse(socket, verdict.status);
          }
          if (closing || options.accepting?.() === false) return refuse(socket, 503);
          if (socket.destroyed) return;
          wss.handleUpgrade(request, socket, head, (opened) => onConnection(opened, socket));
        },
        (error: unknown) => {
          options.log({ event: "mux/fence-failed", error: error instanceof Error ? error.name : "unknown" });
          refuse(socket, 503);
        },
      );
    },

    broadcast(frame) {
      const data = JSON.stringify(frame);
      // Written at once, never held for later: a frame a request's work publishes is on the socket before the request's
      // response is written.
      for (const socket of wss.clients) if (socket.readyState === socket.OPEN) socket.send(data);
    },

    hold(work) {
      const corked: Duplex[] = [];
      for (const socket of wss.clients) {
        const connection = connections.get(socket);
        if (socket.readyState !== socket.OPEN || !connection) continue;
        connection.cork();
        corked.push(connection);
      }
      try {
        work();
      } finally {
        for (const connection of corked) connection.uncork();
      }
    },

    disconnectAll(reason) {
      options.log({ event: "mux/disconnect-all", reason, sockets: wss.clients.size });
      for (const socket of wss.clients) socket.close(1012, reason);
    },

    async close() {
      closing = true;
      clearInterval(ping);
      clearInterval(heartbeat);
      const sockets = [...wss.clients];
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.readyState === socket.CLOSED) return resolve();
              const timer = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
              socket.once("close", () => {
                clearTimeout(timer);
                resolve();
              });
              socket.close(1001, "host shutting down");
            }),
        ),
      );
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
