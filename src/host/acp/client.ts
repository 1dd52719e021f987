import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { methods, RequestError, type ClientConnection, type InitializeResponse, type SessionModeState, type StopReason } from "@agentclientprotocol/sdk";
import { askingMode } from "./modes";
import type { AcpAgentConfig } from "./config";
import type { Logger } from "../log";
import { childStream, DEFAULT_MAX_LINE_BYTES, describeExit, endAgent, errorMessage, initialized, minimalEnv, OPEN_TIMEOUT_MS, OWN_PROCESS_GROUP, settledWithin, signalAgent, spanOf, TailLines, withinMs } from "./child-io";
import { createClientApp, OpenRequests } from "./client-handlers";
import { AcpAgentError, type AcpAgentOptions, type AcpAgentState, type AcpAgentStatus, type NewSessionOptions, type OpenedSession, type SessionEntry } from "./types";

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
  private readonly open: OpenRequests;
  private readonly listeners = new Set<(status: AcpAgentStatus) => void>();
  private latestModes: SessionModeState | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private inflight = 0;
  private readonly log: Logger;
  /** The stop under way: a start meanwhile waits for it, then starts another process; once closed (the host), none. */
  private stopping: Promise<void> | null = null;
  private closed = false;

  constructor(
    readonly config: AcpAgentConfig,
    private readonly options: AcpAgentOptions,
  ) {
    this.log = options.log;
    this.open = new OpenRequests(config.name, options.log, options.maxOpenRequests ?? 64);
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
    // A process being stopped (for idleness, say) takes no new work, whose requests its closed stdin would refuse.
    while (this.stopping) await this.stopping;
    if (this.closed) throw new AcpAgentError("AGENT_EXITED", `${this.config.title} stopped: Parley is stopping`);
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
      // Its own process group, so stopping it stops what it started too (signalAgent).
      detached: OWN_PROCESS_GROUP,
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
    const connection = createClientApp({ agent: config.name, log: this.log, sessions: this.sessions, requests: this.open, touched: () => this.touch() }).connect(stream);
    const ready = initialized(connection, child, config.command, this.options.initializeTimeoutMs ?? 60_000);
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
    // What it started goes with it: a relaunched child holding the pipes would otherwise keep "close" from firing.
    child.once("exit", () => {
      if (!running.stopping) signalAgent(child, "SIGKILL");
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

  /** Forgets a process: its requests abort, its sessions hear `exited` (or `stopped`), and it is killed if it still runs. */
  private gone(running: Running, reason: string, tail: string[]) {
    if (this.running !== running) return;
    this.running = null;
    this.clearIdle();
    this.open.abortAll(new AcpAgentError("AGENT_EXITED", reason));
    running.connection.close(new AcpAgentError("AGENT_EXITED", reason));
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    // A stop told its sessions as it began.
    if (reason !== "stopped") for (const session of sessions) session.events.exited(reason, tail);
    signalAgent(running.child, "SIGKILL");
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

  /** Runs a request to the agent; one that opens or sets up a session (`opening` names it) is bounded (`hung`). */
  private async call<T>(run: () => Promise<T>, opening?: string): Promise<T> {
    const running = this.running;
    let late: AcpAgentError | undefined;
    this.inflight++;
    try {
      return await (opening === undefined ? run() : withinMs(run(), this.options.openTimeoutMs ?? OPEN_TIMEOUT_MS, () => (late = this.hung(running, opening))));
    } catch (error) {
      // Ending a hung process aborts its requests, this one too: it still fails for being hung.
      if (late || error instanceof AcpAgentError) throw late ?? error;
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

  /** An agent that did not answer `what` in time while working on no prompt is hung: its process ends (the next prompt starts another). */
  private hung(running: Running | null, what: string): AcpAgentError {
    const reason = `did not answer ${what} within ${spanOf(this.options.openTimeoutMs ?? OPEN_TIMEOUT_MS)}`;
    // One busy with a prompt (the request was a chat's that gave up waiting on it, say) keeps running.
    const ends = running !== null && this.running === running && ![...this.sessions.values()].some((session) => session.busy);
    if (ends) this.fail(running, reason);
    return new AcpAgentError("AGENT_FAILED", `${this.config.title} ${reason}${ends ? "; its process was ended" : ""}`);
  }

  /** session/new in `cwd`, then the asking mode (options.mode, else `default` when offered). */
  async newSession(cwd: string, options: NewSessionOptions): Promise<OpenedSession> {
    const connection = await this.connected();
    const response = await this.call(() => connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] }), "session/new");
    const session: SessionEntry = { events: options.events, mode: response.modes?.currentModeId ?? null, modes: response.modes ?? null, busy: false };
    this.sessions.set(response.sessionId, session);
    if (response.modes) this.latestModes = response.modes;
    await this.applyMode(response.sessionId, session, options.mode);
    this.touch();
    return { sessionId: response.sessionId, modes: session.modes ? { ...session.modes, currentModeId: session.mode ?? session.modes.currentModeId } : null, restored: false };
  }

  /**
   * Sets the chat's mode, else the agent's asking mode (`askingMode`): a mode the agent no longer offers falls back to it
   * rather than failing every later start of the chat the same way; an agent with no asking mode fails the start.
   */
  private async applyMode(sessionId: string, session: SessionEntry, wanted: string | undefined) {
    if (!session.modes) return;
    const offered = session.modes.availableModes.map((mode) => mode.id);
    const mode = wanted !== undefined && offered.includes(wanted) ? wanted : askingMode(offered, session.mode);
    try {
      if (mode === null) throw new AcpAgentError("MODE_UNAVAILABLE", `${this.config.title} offers no mode that asks before it acts (it offers ${offered.join(", ")})`);
      if (mode !== wanted && wanted !== undefined) this.log({ event: "acp/mode-not-offered", agent: this.config.name, sessionId, mode: wanted.slice(0, 80) });
      if (session.mode !== mode) await this.setMode(sessionId, mode);
    } catch (error) {
      // Not kept as open: a later start would find it held and skip its mode. A refusal is the mode's, not a failed open
      // (which would open a fresh session, losing the agent's memory of the chat).
      this.closeSession(sessionId);
      if (!(error instanceof AcpAgentError) || error.code !== "AGENT_ERROR") throw error;
      throw new AcpAgentError("MODE_UNAVAILABLE", `${this.config.title} did not take the mode ${JSON.stringify(mode)}: ${error.message}`);
    }
  }

  /**
   * Opens `sessionId` again in a process that no longer holds it: session/load when the agent supports it (its history
   * replayed to `events.update`), else a fresh session (`restored: false`: the agent's memory of the chat is lost).
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
      response = await this.call(() => connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] }), "session/load");
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
    await this.call(() => connection.agent.request(methods.agent.session.setMode, { sessionId, modeId }), "session/set_mode");
    session.mode = modeId;
  }

  /** One turn: session/prompt with `text`, resolving with the stop reason (its open requests retired as it ends). */
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
      // Only what this session entry left open: a prompt that outlived it (Stop's grace ran out, and the chat opened the
      // session again) leaves the next turn's requests alone.
      this.open.retire(sessionId, "the turn ended", session);
      if (this.sessions.get(sessionId) !== session) this.log({ event: "acp/prompt-ended-late", agent: this.config.name, sessionId });
      this.touch();
    }
  }

  /** Stop: session/cancel, and every request of the session is answered cancelled at once (ACP asks the client to). */
  async cancel(sessionId: string): Promise<void> {
    const running = this.running;
    if (!running || !this.sessions.has(sessionId)) return;
    this.open.retire(sessionId, "the turn was stopped");
    await running.connection.agent.notify(methods.agent.session.cancel, { sessionId }).catch((error: unknown) => {
      this.log({ event: "acp/cancel-failed", agent: this.config.name, error: errorMessage(error) });
    });
  }

  /** Forgets a session (its chat was deleted, or another host's process took it over): its requests are retired; the process keeps running. */
  closeSession(sessionId: string): void {
    this.open.retire(sessionId, "the session was closed");
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

  /** Stops the process and all it started (endAgent), resolving once they are gone; its sessions are forgotten, state `idle`. */
  async stop(graceMs = 2000): Promise<void> {
    const running = this.running;
    if (!running) return;
    if (running.stopping && this.stopping) return this.stopping;
    running.stopping = true;
    // Its sessions are let go of as it begins: a prompt meanwhile opens its chat's session again in the next process.
    for (const session of this.sessions.values()) session.events.stopped();
    const stopped = endAgent(running.child, graceMs)
      .then(() => {
        this.gone(running, "stopped", []);
        if (this.running === null && this.state !== "disabled") this.setState("idle");
      })
      .finally(() => {
        if (this.stopping === stopped) this.stopping = null;
      });
    this.stopping = stopped;
    return stopped;
  }

  /** Stops for good, with the host: a start after it is refused. */
  async close(): Promise<void> {
    this.closed = true;
    await (this.running ? this.stop() : this.stopping);
  }
}
