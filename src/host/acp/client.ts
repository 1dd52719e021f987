import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import {
  client,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type AnyMessage,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeResponse,
  type JsonRpcId,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
  type Stream,
} from "@agentclientprotocol/sdk";
import type { AcpAgentConfig } from "./config";
import type { Logger } from "../log";

/** `starting` until the agent answered `initialize`; `idle` when it was stopped (idle, or never started) and starts again on use. */
export type AcpAgentState = "starting" | "ready" | "failed" | "disabled" | "idle";

/** What `GET /api/agents` shows of one agent. */
export interface AcpAgentStatus {
  name: string;
  title: string;
  state: AcpAgentState;
  /** Why it failed: the reason, then the last lines of its stderr. */
  error?: string;
  stderrTail?: string[];
  /** The modes its latest session offered. */
  modes?: { id: string; name: string; description?: string }[];
  /** Whether it answered `initialize` with `loadSession: true`. */
  loadSession?: boolean;
}

/** A `session/request_permission` of the agent, for the human. */
export interface PermissionAsk {
  requestId: JsonRpcId;
  sessionId: string;
  request: RequestPermissionRequest;
  /** Aborts when the agent withdraws the request (`$/cancel_request`), the turn ends or is stopped, or the agent exits. */
  signal: AbortSignal;
}

/** An `elicitation/create` of the agent in form mode, for the human. */
export interface ElicitationAsk {
  requestId: JsonRpcId;
  sessionId: string;
  request: Extract<CreateElicitationRequest, { mode: "form" }>;
  signal: AbortSignal;
}

/**
 * Everything one ACP session's agent sends, as calls. `askPermission` and `elicit` resolve with what goes
 * back to the agent; once their signal aborted the client answers `cancelled` / `cancel` itself.
 */
export interface AcpEvents {
  update(update: SessionUpdate): void;
  askPermission(ask: PermissionAsk): Promise<RequestPermissionResponse>;
  elicit(ask: ElicitationAsk): Promise<CreateElicitationResponse>;
  /** A request this session's panel shows went away before it was answered. */
  requestCancelled(requestId: JsonRpcId): void;
  /** The agent's process ended while this session was open: its state and memory are gone from this process. */
  exited(reason: string, stderrTail: string[]): void;
}

export interface AcpAgentOptions {
  log: Logger;
  /** The working directory of the agent's process (sessions name their own). */
  cwd: string;
  /** The host's environment, from which only the basics are passed on (minimalEnv). */
  hostEnv?: NodeJS.ProcessEnv;
  /** How long `initialize` may take; default 60 s. */
  initializeTimeoutMs?: number;
  /** Stop the process after this long without a session in use; 0 (the default) never. */
  idleMs?: number;
  /** The longest line read from the agent's stdout; longer lines are dropped. Default 32 MiB. */
  maxLineBytes?: number;
  /** How many agent requests may wait for the human at once; more are refused. Default 64. */
  maxOpenRequests?: number;
}

/** A failure of an ACP call: the agent is not running, it exited, or it answered with an error. */
export class AcpAgentError extends Error {
  override readonly name = "AcpAgentError";
  constructor(
    readonly code: "AGENT_DISABLED" | "AGENT_FAILED" | "AGENT_EXITED" | "UNKNOWN_SESSION" | "AGENT_ERROR",
    message: string,
  ) {
    super(message);
  }
}

/** The host variables an agent process gets; everything else of the host's environment (PARLEY_TOKEN…) stays out. */
export const PASSED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TMP", "TEMP"] as const;

/** The environment an agent starts with: PASSED_ENV of the host's, then its own `env`. */
export function minimalEnv(hostEnv: NodeJS.ProcessEnv, own: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(own)) env[name] = value;
  return env;
}

const KNOWN_UPDATES = new Set([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
  "available_commands_update",
  "current_mode_update",
  "config_option_update",
  "session_info_update",
  "usage_update",
  "notice",
  "compaction_update",
  "compaction_summary_chunk",
]);

const STDERR_LINES = 20;
const STDERR_LINE_CHARS = 500;
const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
const REQUEST_PREFIX = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*,\s*"method"/;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keeps the last lines of a stream, each and all bounded. */
class TailLines {
  private lines: string[] = [];
  private partial = "";
  push(chunk: string) {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = (parts.pop() ?? "").slice(-STDERR_LINE_CHARS);
    for (const line of parts) this.add(line);
  }
  private add(line: string) {
    if (line.trim() === "") return;
    this.lines.push(line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line);
    if (this.lines.length > STDERR_LINES) this.lines.shift();
  }
  read(): string[] {
    return this.partial.trim() === "" ? [...this.lines] : [...this.lines, this.partial].slice(-STDERR_LINES);
  }
}

interface StreamHooks {
  log: Logger;
  agent: string;
  maxLineBytes: number;
  /** Answers a request that could not be read (too long) so the agent does not wait for it. */
  refuse(id: JsonRpcId, message: string): void;
}

/**
 * The SDK's Stream over a child's stdio, with bounds the SDK's ndJsonStream lacks: a line longer than
 * maxLineBytes is dropped (a request among them answered -32600), a line that is not JSON-RPC is logged
 * and dropped, and a session/update of a kind the SDK does not know is logged and dropped.
 */
function childStream(child: ChildProcessWithoutNullStreams, hooks: StreamHooks): Stream {
  let garbage = 0;
  // Once the SDK cancels the stream (the connection closed), whatever the child still writes is dropped.
  let closed = false;
  const readable = new ReadableStream<AnyMessage>({
    cancel() {
      closed = true;
    },
    start(controller) {
      let parts: Buffer[] = [];
      let length = 0;
      let overflow: string | null = null;
      const take = (line: Buffer) => {
        if (closed) return;
        const text = line.toString("utf8").trim();
        if (text === "") return;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          value = undefined;
        }
        if (!isRecord(value) || value.jsonrpc !== "2.0") {
          garbage++;
          if (garbage <= 5 || garbage % 1000 === 0) hooks.log({ event: "acp/garbage", agent: hooks.agent, lines: garbage, sample: text.slice(0, 80) });
          return;
        }
        if (value.method === methods.client.session.update && isRecord(value.params)) {
          const update = value.params.update;
          const kind = isRecord(update) ? update.sessionUpdate : undefined;
          if (typeof kind !== "string" || !KNOWN_UPDATES.has(kind)) {
            hooks.log({ event: "acp/unknown-update", agent: hooks.agent, kind: typeof kind === "string" ? kind.slice(0, 64) : null });
            return;
          }
        }
        try {
          controller.enqueue(value as AnyMessage);
        } catch {
          closed = true;
        }
      };
      child.stdout.on("data", (chunk: Buffer) => {
        let start = 0;
        while (start < chunk.length) {
          const end = chunk.indexOf(0x0a, start);
          const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
          if (overflow === null) {
            if (length + piece.length > hooks.maxLineBytes) {
              overflow = Buffer.concat([...parts, piece]).subarray(0, 400).toString("utf8");
              parts = [];
              length = 0;
            } else {
              parts.push(piece);
              length += piece.length;
            }
          }
          if (end === -1) break;
          if (overflow !== null) {
            const id = REQUEST_PREFIX.exec(overflow)?.[1];
            hooks.log({ event: "acp/line-too-long", agent: hooks.agent, limit: hooks.maxLineBytes, request: id !== undefined });
            if (id !== undefined) hooks.refuse(JSON.parse(id) as JsonRpcId, `message longer than ${hooks.maxLineBytes} bytes`);
            overflow = null;
          } else {
            take(Buffer.concat(parts, length));
            parts = [];
            length = 0;
          }
          start = end + 1;
        }
      });
      child.stdout.on("end", () => {
        if (overflow === null && length > 0) take(Buffer.concat(parts, length));
        if (closed) return;
        closed = true;
        try {
          controller.close();
        } catch {
          // the stream was cancelled meanwhile
        }
      });
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      return new Promise<void>((resolve, reject) => {
        if (!child.stdin.writable) {
          reject(new Error("the agent's stdin is closed"));
          return;
        }
        child.stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
      });
    },
  });
  return { readable, writable };
}

interface OpenRequest {
  sessionId: string;
  controller: AbortController;
}

interface SessionEntry {
  events: AcpEvents;
  mode: string | null;
  modes: SessionModeState | null;
  busy: boolean;
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  connection: ClientConnection;
  ready: Promise<InitializeResponse>;
  stopping: boolean;
  stderr: TailLines;
  /** Resolves once the process exited (or could not start). */
  ended: Promise<void>;
}

/** How long a closed connection waits for the process's exit, whose code makes the better reason. */
const EXIT_AFTER_CLOSE_MS = 1000;

export interface NewSessionOptions {
  /** The mode to set after session/new; default `default`, the asking mode, when the agent offers it. */
  mode?: string;
  events: AcpEvents;
}

export interface OpenedSession {
  sessionId: string;
  modes: SessionModeState | null;
  /** For resumeSession: true when the agent loaded the session with its memory, false for a fresh one. */
  restored: boolean;
}

/**
 * One configured ACP agent: one process (started on first use or by start()), any number of sessions in
 * it. Every session/update, permission request and form of a session goes to the events it was opened
 * with; unknown requests are answered -32601 and logged, never fatal.
 */
export class AcpAgentProcess {
  private state: AcpAgentState;
  private error: string | undefined;
  private stderrTail: string[] = [];
  private running: Running | null = null;
  private initialize: InitializeResponse | null = null;
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly open = new Map<JsonRpcId, OpenRequest>();
  private readonly listeners = new Set<(status: AcpAgentStatus) => void>();
  private latestModes: SessionModeState | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private inflight = 0;
  private readonly log: Logger;

  constructor(
    readonly config: AcpAgentConfig,
    private readonly options: AcpAgentOptions,
  ) {
    this.log = options.log;
    this.state = config.disabled ? "disabled" : "idle";
  }

  status(): AcpAgentStatus {
    return {
      name: this.config.name,
      title: this.config.title,
      state: this.state,
      ...(this.error === undefined ? {} : { error: this.error, stderrTail: this.stderrTail }),
      ...(this.latestModes ? { modes: this.latestModes.availableModes.map(({ id, name, description }) => ({ id, name, ...(description ? { description } : {}) })) } : {}),
      ...(this.initialize ? { loadSession: this.initialize.agentCapabilities?.loadSession === true } : {}),
    };
  }

  onStatus(listener: (status: AcpAgentStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The process id while it runs (for tests and memory measurements). */
  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  get supportsLoadSession(): boolean {
    return this.initialize?.agentCapabilities?.loadSession === true;
  }

  private setState(state: AcpAgentState, error?: string) {
    this.state = state;
    this.error = error;
    if (state !== "failed") this.stderrTail = [];
    const status = this.status();
    for (const listener of this.listeners) listener(status);
  }

  /** Starts the process unless it runs, and resolves once it answered `initialize`; rejects AcpAgentError when it cannot. */
  async start(): Promise<InitializeResponse> {
    if (this.state === "disabled") throw new AcpAgentError("AGENT_DISABLED", `${this.config.title} is disabled in the agents config`);
    if (this.running) return this.running.ready;
    return this.spawn().ready;
  }

  private spawn(): Running {
    const { config } = this;
    this.setState("starting");
    const child = spawn(config.command, config.args, {
      cwd: this.options.cwd,
      env: minimalEnv(this.options.hostEnv ?? process.env, config.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stderr = new TailLines();
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => stderr.push(chunk));
    child.stdin.on("error", (error) => this.log({ event: "acp/stdin-error", agent: config.name, error: errorMessage(error) }));
    const stream = childStream(child, {
      log: this.log,
      agent: config.name,
      maxLineBytes: this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      refuse: (id, message) => {
        if (child.stdin.writable) child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32600, message } })}\n`);
      },
    });
    const connection = this.clientApp().connect(stream);
    const timeoutMs = this.options.initializeTimeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const exited = new Promise<never>((_, reject) => {
      child.once("error", (error) => reject(new AcpAgentError("AGENT_FAILED", `cannot start ${config.command}: ${errorMessage(error)}`)));
      child.once("close", (code: number | null, signal: NodeJS.Signals | null) => reject(new AcpAgentError("AGENT_EXITED", describeExit(code, signal))));
    });
    exited.catch(() => undefined);
    const ready = Promise.race([
      connection.agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, elicitation: { form: {} } },
        clientInfo: { name: "parley", title: "Parley", version: "0.1.0" },
      }),
      exited,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new AcpAgentError("AGENT_FAILED", `did not answer initialize within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    const ended = new Promise<void>((resolve) => {
      child.once("close", () => resolve());
      child.once("error", () => resolve());
    });
    const running: Running = { child, connection, ready, stopping: false, stderr, ended };
    this.running = running;
    void connection.closed.then(async () => {
      if (this.running !== running || running.stopping) return;
      await settledWithin(ended, EXIT_AFTER_CLOSE_MS);
      if (this.running === running && !running.stopping) this.fail(running, "the agent closed its output");
    });
    ready.then(
      (response) => {
        if (this.running !== running) return;
        this.initialize = response;
        this.log({ event: "acp/agent-ready", agent: config.name, pid: child.pid ?? null, loadSession: response.agentCapabilities?.loadSession === true });
        this.setState("ready");
        this.touch();
      },
      (error: unknown) => {
        if (this.running !== running || running.stopping) return;
        this.fail(running, errorMessage(error));
      },
    );
    child.once("error", (error) => {
      if (this.running === running) this.fail(running, `cannot start ${config.command}: ${errorMessage(error)}`);
    });
    child.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.running !== running) return;
      if (running.stopping) {
        this.gone(running, "stopped", []);
        this.setState(this.config.disabled ? "disabled" : "idle");
        return;
      }
      this.fail(running, describeExit(code, signal));
    });
    return running;
  }

  private fail(running: Running, reason: string) {
    const tail = running.stderr.read();
    this.log({ event: "acp/agent-failed", agent: this.config.name, error: reason, stderr: tail.at(-1) ?? null });
    this.gone(running, reason, tail);
    this.stderrTail = tail;
    this.state = "failed";
    this.error = tail.length > 0 ? `${reason}: ${tail.join("\n")}` : reason;
    const status = this.status();
    for (const listener of this.listeners) listener(status);
  }

  /** Forgets a process: its requests abort, its sessions hear `exited`, and it is killed if it still runs. */
  private gone(running: Running, reason: string, tail: string[]) {
    if (this.running !== running) return;
    this.running = null;
    this.clearIdle();
    for (const request of this.open.values()) request.controller.abort(new AcpAgentError("AGENT_EXITED", reason));
    this.open.clear();
    running.connection.close(new AcpAgentError("AGENT_EXITED", reason));
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    if (reason !== "stopped") for (const session of sessions) session.events.exited(reason, tail);
    if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill("SIGKILL");
  }

  private clientApp() {
    return client({ name: "parley" })
      .onNotification(methods.client.session.update, ({ params }) => {
        const session = this.sessions.get(params.sessionId);
        if (!session) {
          this.log({ event: "acp/update-unknown-session", agent: this.config.name, kind: params.update.sessionUpdate });
          return;
        }
        if (params.update.sessionUpdate === "current_mode_update") session.mode = params.update.currentModeId;
        session.events.update(params.update);
      })
      .onRequest(methods.client.session.requestPermission, async ({ params, requestId, signal }) => {
        const cancelled: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };
        const opened = this.openRequest(params.sessionId, requestId, signal, "session/request_permission");
        if (!opened) return cancelled;
        const { session, controller } = opened;
        try {
          return await untilAborted(session.events.askPermission({ requestId, sessionId: params.sessionId, request: params, signal: controller.signal }), controller.signal, cancelled);
        } finally {
          this.closeRequest(requestId, controller, session);
        }
      })
      .onRequest(methods.client.elicitation.create, async ({ params, requestId, signal }) => {
        const sessionId = "sessionId" in params && typeof params.sessionId === "string" ? params.sessionId : null;
        if (params.mode !== "form" || sessionId === null) {
          this.log({ event: "acp/elicitation-declined", agent: this.config.name, reason: params.mode !== "form" ? `mode ${String(params.mode).slice(0, 32)}` : "not tied to a session" });
          return { action: "decline" };
        }
        const opened = this.openRequest(sessionId, requestId, signal, "elicitation/create");
        if (!opened) return { action: "cancel" };
        const { session, controller } = opened;
        try {
          const request = params as Extract<CreateElicitationRequest, { mode: "form" }>;
          return await untilAborted(session.events.elicit({ requestId, sessionId, request, signal: controller.signal }), controller.signal, { action: "cancel" } as CreateElicitationResponse);
        } finally {
          this.closeRequest(requestId, controller, session);
        }
      })
      .onNotification(methods.client.elicitation.complete, () => undefined)
      .onRequest("*", ({ method }) => {
        this.log({ event: "acp/unknown-request", agent: this.config.name, method: method.slice(0, 100) });
        throw RequestError.methodNotFound(method);
      })
      .onNotification("*", ({ method }) => {
        if (method === methods.protocol.cancelRequest) return;
        this.log({ event: "acp/unknown-notification", agent: this.config.name, method: method.slice(0, 100) });
      });
  }

  private openRequest(sessionId: string, requestId: JsonRpcId, signal: AbortSignal, method: string): { session: SessionEntry; controller: AbortController } | null {
    const session = this.sessions.get(sessionId);
    if (!session) {
      this.log({ event: "acp/request-unknown-session", agent: this.config.name, method });
      return null;
    }
    if (this.open.size >= (this.options.maxOpenRequests ?? 64)) {
      this.log({ event: "acp/too-many-requests", agent: this.config.name, method, open: this.open.size });
      return null;
    }
    if (signal.aborted) return null;
    const controller = new AbortController();
    controller.signal.addEventListener("abort", () => session.events.requestCancelled(requestId), { once: true });
    signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    this.open.set(requestId, { sessionId, controller });
    return { session, controller };
  }

  private closeRequest(requestId: JsonRpcId, controller: AbortController, session: SessionEntry) {
    if (this.open.get(requestId)?.controller === controller) this.open.delete(requestId);
    void session;
    this.touch();
  }

  /** Aborts every request a session left open (its turn ended or was stopped). */
  private retireRequests(sessionId: string, reason: string) {
    for (const [id, request] of this.open) {
      if (request.sessionId !== sessionId) continue;
      this.open.delete(id);
      request.controller.abort(new Error(reason));
    }
  }

  private async connected(): Promise<ClientConnection> {
    await this.start();
    if (!this.running) throw new AcpAgentError("AGENT_EXITED", this.error ?? `${this.config.title} stopped`);
    return this.running.connection;
  }

  private entry(sessionId: string): SessionEntry {
    const session = this.sessions.get(sessionId);
    if (!session) throw new AcpAgentError("UNKNOWN_SESSION", `${this.config.title} holds no session ${sessionId} (it restarted): resume it first`);
    return session;
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    const running = this.running;
    this.inflight++;
    try {
      return await run();
    } catch (error) {
      if (error instanceof AcpAgentError) throw error;
      if (error instanceof RequestError) throw new AcpAgentError("AGENT_ERROR", `${this.config.title} answered ${error.code}: ${error.message}`);
      if (running?.connection.signal.aborted) {
        await settledWithin(running.ended, EXIT_AFTER_CLOSE_MS);
        throw new AcpAgentError("AGENT_EXITED", this.error ?? errorMessage(error));
      }
      throw new AcpAgentError("AGENT_ERROR", errorMessage(error));
    } finally {
      this.inflight--;
    }
  }

  /** session/new in `cwd`, then the asking mode (options.mode, else `default` when offered). */
  async newSession(cwd: string, options: NewSessionOptions): Promise<OpenedSession> {
    const connection = await this.connected();
    const response = await this.call(() => connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] }));
    const session: SessionEntry = { events: options.events, mode: response.modes?.currentModeId ?? null, modes: response.modes ?? null, busy: false };
    this.sessions.set(response.sessionId, session);
    if (response.modes) this.latestModes = response.modes;
    await this.applyMode(response.sessionId, session, options.mode);
    this.touch();
    return { sessionId: response.sessionId, modes: session.modes ? { ...session.modes, currentModeId: session.mode ?? session.modes.currentModeId } : null, restored: false };
  }

  private async applyMode(sessionId: string, session: SessionEntry, wanted: string | undefined) {
    const mode = wanted ?? "default";
    if (!session.modes || session.mode === mode) return;
    if (!session.modes.availableModes.some((offered) => offered.id === mode)) {
      if (wanted !== undefined) throw new AcpAgentError("AGENT_ERROR", `${this.config.title} offers no mode ${JSON.stringify(mode)}`);
      return;
    }
    await this.setMode(sessionId, mode);
  }

  /**
   * Opens `sessionId` again in a process that no longer holds it: session/load when the agent supports
   * it (its replayed history goes to `events.update`), else a fresh session (`restored: false`: the
   * agent's memory of the chat is lost). The mode is set again either way.
   */
  async resumeSession(sessionId: string, cwd: string, options: NewSessionOptions): Promise<OpenedSession> {
    await this.connected();
    if (this.sessions.has(sessionId)) {
      this.sessions.get(sessionId)!.events = options.events;
      return { sessionId, modes: this.sessions.get(sessionId)!.modes, restored: true };
    }
    if (!this.supportsLoadSession) return this.newSession(cwd, options);
    try {
      return await this.loadSession(sessionId, cwd, options);
    } catch (error) {
      if (!(error instanceof AcpAgentError) || error.code !== "AGENT_ERROR") throw error;
      this.log({ event: "acp/load-failed", agent: this.config.name, error: error.message.slice(0, 200) });
      return this.newSession(cwd, options);
    }
  }

  /** session/load; rejects AGENT_ERROR when the agent cannot (unsupported, or it does not know the session). */
  async loadSession(sessionId: string, cwd: string, options: NewSessionOptions): Promise<OpenedSession> {
    const connection = await this.connected();
    const session: SessionEntry = { events: options.events, mode: null, modes: null, busy: false };
    this.sessions.set(sessionId, session);
    let response;
    try {
      response = await this.call(() => connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] }));
    } catch (error) {
      if (this.sessions.get(sessionId) === session) this.sessions.delete(sessionId);
      throw error;
    }
    session.modes = response.modes ?? null;
    session.mode = session.mode ?? response.modes?.currentModeId ?? null;
    if (response.modes) this.latestModes = response.modes;
    await this.applyMode(sessionId, session, options.mode);
    this.touch();
    return { sessionId, modes: session.modes ? { ...session.modes, currentModeId: session.mode ?? session.modes.currentModeId } : null, restored: true };
  }

  /** The session's current mode as the agent last reported it. */
  modeOf(sessionId: string): string | null {
    return this.sessions.get(sessionId)?.mode ?? null;
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    const connection = await this.connected();
    const session = this.entry(sessionId);
    await this.call(() => connection.agent.request(methods.agent.session.setMode, { sessionId, modeId }));
    session.mode = modeId;
  }

  /**
   * One turn: session/prompt with `text`. Resolves with the stop reason; every request the turn left
   * open is retired when it ends. Rejects AcpAgentError when the agent exits during it.
   */
  async prompt(sessionId: string, text: string): Promise<StopReason> {
    const connection = await this.connected();
    const session = this.entry(sessionId);
    session.busy = true;
    this.clearIdle();
    try {
      const response = await this.call(() => connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] }));
      return response.stopReason;
    } finally {
      session.busy = false;
      this.retireRequests(sessionId, "the turn ended");
      this.touch();
    }
  }

  /** Stop: session/cancel, and every request of the session is answered cancelled at once (ACP asks the client to). */
  async cancel(sessionId: string): Promise<void> {
    const running = this.running;
    if (!running || !this.sessions.has(sessionId)) return;
    this.retireRequests(sessionId, "the turn was stopped");
    await running.connection.agent.notify(methods.agent.session.cancel, { sessionId }).catch((error: unknown) => {
      this.log({ event: "acp/cancel-failed", agent: this.config.name, error: errorMessage(error) });
    });
  }

  /** Forgets a session (its chat was deleted): its requests are retired; the process keeps running. */
  closeSession(sessionId: string): void {
    this.retireRequests(sessionId, "the session was closed");
    this.sessions.delete(sessionId);
    this.touch();
  }

  private clearIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private touch() {
    this.clearIdle();
    const idleMs = this.options.idleMs ?? 0;
    if (idleMs <= 0 || !this.running || this.state !== "ready") return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.inflight > 0 || [...this.sessions.values()].some((session) => session.busy) || this.open.size > 0) {
        this.touch();
        return;
      }
      this.log({ event: "acp/agent-idle-stop", agent: this.config.name });
      void this.stop();
    }, idleMs);
    this.idleTimer.unref();
  }

  /** Stops the process (SIGTERM, then SIGKILL after `graceMs`); its sessions are forgotten, the state goes `idle`. */
  async stop(graceMs = 2000): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.stopping = true;
    const exited = new Promise<void>((resolve) => {
      if (running.child.exitCode !== null || running.child.signalCode !== null) resolve();
      else running.child.once("exit", () => resolve());
    });
    running.child.stdin.end();
    running.child.kill("SIGTERM");
    const timer = setTimeout(() => running.child.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
    this.gone(running, "stopped", []);
    if (this.state !== "disabled") this.setState("idle");
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `the agent was killed by ${signal}` : `the agent exited with code ${code ?? "?"}`;
}

function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Settles with `promise`, or with `fallback` as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, fallback: T): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(fallback);
  }
  return new Promise<T>((resolve) => {
    const onAbort = () => resolve(fallback);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(signal.aborted ? fallback : value);
      },
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve(fallback);
      },
    );
  });
}
