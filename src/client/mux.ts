import { HEARTBEAT_INTERVAL_MS } from "../protocol/limits";
import type { DownFrame } from "../protocol/schemas";
import { loadChecks, loadedChecks, type Checks } from "./load-checks";
import type { ConnectionStatus } from "../store/state";
import { backoffDelay } from "../protocol/backoff";

export type { ConnectionStatus };

/** The part of a WebSocket the mux uses; the browser's and `ws`'s both fit. */
export interface MuxSocket {
  readonly readyState: number;
  addEventListener(type: "open" | "close" | "error", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  close(code?: number, reason?: string): void;
}
export type MuxSocketConstructor = new (url: string) => MuxSocket;

export interface MuxTimers {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface MuxOptions {
  url: string;
  onFrame: (frame: DownFrame) => void;
  onStatus?: (status: ConnectionStatus) => void;
  /** Defaults to the global `WebSocket`. */
  WebSocket?: MuxSocketConstructor;
  /** Jitter source in [0, 1); defaults to `Math.random`. */
  random?: () => number;
  timers?: MuxTimers;
  /** Calls `wake` when a retry should happen at once; returns an unsubscribe. Defaults to tab-visible and browser-online events. */
  subscribeWake?: (wake: () => void) => () => void;
  /** Timers of the watchdog (a socket stuck connecting, a silent socket); defaults to the real ones. */
  watchdogTimers?: MuxTimers;
  /** How long a socket may stay connecting before it is given up; default CONNECT_TIMEOUT_MS. */
  connectTimeoutMs?: number;
}

/** A socket still connecting after this long is closed and retried with the usual backoff. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Silence for this many heartbeat intervals means the connection is dead (a half-open TCP connection shows nothing else). */
export const SILENT_INTERVALS = 2.5;
const MIN_HEARTBEAT_MS = 100;
const MAX_HEARTBEAT_MS = 10 * 60_000;

export interface MuxConnection {
  readonly status: ConnectionStatus;
  /** Tries to reconnect at once instead of waiting for the backoff (the offline banner's `Retry now`). */
  retryNow(): void;
  /** Closes the socket and stops reconnecting; no status or frame is reported afterwards. */
  close(): void;
}

/** The `/api/mux` URL for a page location, ws or wss by the page's protocol. */
export function muxUrl(location: { protocol: string; host: string }): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/mux`;
}

/** Retries at once when the tab becomes visible or the browser comes back online. */
export function subscribeBrowserWake(wake: () => void): () => void {
  if (typeof document === "undefined" || typeof window === "undefined") return () => undefined;
  const onVisibilityChange = () => {
    if (document.visibilityState === "visible") wake();
  };
  document.addEventListener("visibilitychange", onVisibilityChange);
  window.addEventListener("online", wake);
  return () => {
    document.removeEventListener("visibilitychange", onVisibilityChange);
    window.removeEventListener("online", wake);
  };
}

// An error event is always followed by a close event, which drives the reconnect; `ws` throws on an unheard error.
function ignoreSocketError(): void {}

const defaultTimers: MuxTimers = {
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** Opens the downlink and keeps it open: validates frames, reports status, reconnects with backoff. */
export function createMux(options: MuxOptions): MuxConnection {
  const maybeConstructor = options.WebSocket ?? (globalThis.WebSocket as MuxSocketConstructor | undefined);
  if (!maybeConstructor) throw new Error("no WebSocket implementation is available");
  const SocketConstructor: MuxSocketConstructor = maybeConstructor;
  const random = options.random ?? Math.random;
  const timers = options.timers ?? defaultTimers;
  const watchdogTimers = options.watchdogTimers ?? defaultTimers;
  let watchdog: unknown = null;
  let heartbeatMs = HEARTBEAT_INTERVAL_MS;
  let status: ConnectionStatus = "connecting";
  let socket: MuxSocket | null = null;
  let retryTimer: unknown = null;
  let failedAttempts = 0;
  let closed = false;

  const setStatus = (next: ConnectionStatus) => {
    if (closed || next === status) return;
    status = next;
    options.onStatus?.(next);
  };

  const stopWatchdog = () => {
    if (watchdog !== null) watchdogTimers.clearTimeout(watchdog);
    watchdog = null;
  };

  /** Drops the current socket as unusable and tries again after the backoff. */
  const drop = (current: MuxSocket, reason: string) => {
    stopWatchdog();
    socket = null;
    current.close(4000, reason);
    setStatus("offline");
    scheduleRetry();
  };

  /** (Re)arms the watchdog for `socket`: when it fires, the socket is dropped as dead, whatever its state. */
  const watch = (current: MuxSocket, delayMs: number, reason: string) => {
    stopWatchdog();
    watchdog = watchdogTimers.setTimeout(() => {
      watchdog = null;
      if (closed || socket !== current) return;
      console.warn(`mux: ${reason}; reconnecting`);
      drop(current, reason);
    }, delayMs);
  };
  const watchSilence = (current: MuxSocket) => watch(current, heartbeatMs * SILENT_INTERVALS, "no heartbeat");

  const deliver = (data: unknown, checks: Checks) => {
    if (typeof data !== "string") {
      console.warn("mux: dropped a non-text frame");
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (error) {
      console.warn("mux: dropped a frame that is not JSON", error);
      return;
    }
    // Most frames are not heartbeats: a failed check costs more than reading the type first.
    if ((json as { type?: unknown } | null)?.type === "heartbeat" && checks.HeartbeatFrame.safeParse(json).success) return;
    const parsed = checks.DownFrame.safeParse(json);
    if (!parsed.success) {
      console.warn("mux: dropped an invalid frame", parsed.error.issues, json);
      return;
    }
    if (parsed.data.type === "hello") {
      failedAttempts = 0;
      heartbeatMs = Math.min(Math.max(parsed.data.heartbeatMs ?? HEARTBEAT_INTERVAL_MS, MIN_HEARTBEAT_MS), MAX_HEARTBEAT_MS);
    }
    options.onFrame(parsed.data);
  };

  // Frames that came before the checks had loaded wait for them here, in order, with the socket they came on.
  const held: { from: MuxSocket; data: unknown }[] = [];
  const receive = (from: MuxSocket, data: unknown) => {
    const checks = loadedChecks();
    if (checks !== undefined && held.length === 0) {
      deliver(data, checks);
      return;
    }
    held.push({ from, data });
    if (held.length > 1) return;
    const drain = (loaded: Checks) => {
      for (const frame of held.splice(0)) if (!closed && socket === frame.from) deliver(frame.data, loaded);
      // A hello held until now may have set another heartbeat: the silence watch starts again from it.
      if (!closed && socket === from) watchSilence(from);
    };
    loadChecks().then(drain, (error: unknown) => {
      console.warn("mux: the frame checks did not load; reconnecting to try again", error);
      held.length = 0;
      if (!closed && socket !== null) drop(socket, "frame checks did not load");
    });
  };

  const scheduleRetry = () => {
    const delay = backoffDelay(failedAttempts, random);
    failedAttempts += 1;
    retryTimer = timers.setTimeout(connect, delay);
  };

  function connect() {
    retryTimer = null;
    if (closed) return;
    setStatus("connecting");
    let current: MuxSocket;
    try {
      current = new SocketConstructor(options.url);
    } catch (error) {
      console.warn("mux: could not open the socket", error);
      setStatus("offline");
      scheduleRetry();
      return;
    }
    socket = current;
    current.addEventListener("error", ignoreSocketError);
    const isCurrent = () => !closed && socket === current;
    watch(current, options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, "the socket is stuck connecting");
    current.addEventListener("open", () => {
      if (!isCurrent()) return;
      watchSilence(current);
      setStatus("online");
    });
    current.addEventListener("message", (event) => {
      if (!isCurrent()) return;
      receive(current, event.data);
      if (isCurrent()) watchSilence(current);
    });
    current.addEventListener("close", () => {
      if (!isCurrent()) return;
      stopWatchdog();
      socket = null;
      setStatus("offline");
      scheduleRetry();
    });
  }

  const wake = () => {
    if (closed || socket !== null) return;
    if (retryTimer !== null) timers.clearTimeout(retryTimer);
    connect();
  };

  const unsubscribeWake = (options.subscribeWake ?? subscribeBrowserWake)(wake);
  options.onStatus?.(status);
  connect();

  return {
    get status() {
      return status;
    },
    retryNow: wake,
    close() {
      if (closed) return;
      closed = true;
      unsubscribeWake();
      stopWatchdog();
      if (retryTimer !== null) timers.clearTimeout(retryTimer);
      retryTimer = null;
      const last = socket;
      socket = null;
      last?.close(1000, "client closed");
    },
  };
}
