import type { ChildProcess, ChildProcessWithoutNullStreams } from "node:child_process";
import { methods, PROTOCOL_VERSION, type AnyMessage, type ClientConnection, type InitializeResponse, type JsonRpcId, type Stream } from "@agentclientprotocol/sdk";
import { AcpAgentError } from "./types";
import type { Logger } from "../log";
import { isRecord } from "../../protocol/elicitation-field";

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
export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
const REQUEST_PREFIX = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*,\s*"method"/;

/** The id of the request an over-long line begins, when it begins one with an id JSON reads (`"\\x"` is none). */
function requestIdOf(line: string): JsonRpcId | undefined {
  const id = REQUEST_PREFIX.exec(line)?.[1];
  if (id === undefined) return undefined;
  try {
    return JSON.parse(id) as JsonRpcId;
  } catch {
    return undefined;
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Keeps the last lines of a stream, each and all bounded. */
export class TailLines {
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
export function childStream(child: ChildProcessWithoutNullStreams, hooks: StreamHooks): Stream {
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
            const id = requestIdOf(overflow);
            hooks.log({ event: "acp/line-too-long", agent: hooks.agent, limit: hooks.maxLineBytes, request: id !== undefined });
            if (id !== undefined) hooks.refuse(id, `message longer than ${hooks.maxLineBytes} bytes`);
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

export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `the agent was killed by ${signal}` : `the agent exited with code ${code ?? "?"}`;
}

export function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
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
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, fallback: T): Promise<T> {
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

/** Whether agents are spawned as the leaders of their own process groups (POSIX only). */
export const OWN_PROCESS_GROUP = process.platform !== "win32";

/**
 * Sends a signal to an agent's whole process group, so the processes a wrapper starts (Qwen Code and Gemini CLI relaunch
 * themselves in child processes) go with it; a group already gone is no error.
 */
export function signalAgent(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  if (OWN_PROCESS_GROUP) {
    try {
      process.kill(-child.pid, signal);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return;
    }
  }
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

/** Whether any process of the agent's group is still there (a zombie counts until it is reaped). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until every process of the agent's group is gone: SIGKILL to the group once `graceMs` passed since `since`,
 * then at most `settleMs` more (a process whose reaper is slow is left to it).
 */
export async function agentGroupGone(child: ChildProcess, since: number, graceMs: number, settleMs = 1000): Promise<void> {
  const pid = child.pid;
  if (!OWN_PROCESS_GROUP || pid === undefined) return;
  let killed = false;
  while (groupAlive(pid)) {
    const elapsed = Date.now() - since;
    if (!killed && elapsed >= graceMs) {
      killed = true;
      signalAgent(child, "SIGKILL");
    }
    if (elapsed >= graceMs + settleMs) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Ends an agent and every process it started: its stdin closed, SIGTERM to its group, SIGKILL after `graceMs`; resolves
 * once they are gone.
 */
export async function endAgent(child: ChildProcessWithoutNullStreams, graceMs: number): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  const since = Date.now();
  child.stdin.end();
  signalAgent(child, "SIGTERM");
  const timer = setTimeout(() => signalAgent(child, "SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
  await agentGroupGone(child, since, graceMs);
}

/** The agent's answer to `initialize`; rejects AcpAgentError when its process fails or exits first, or after `timeoutMs`. */
export function initialized(connection: ClientConnection, child: ChildProcessWithoutNullStreams, command: string, timeoutMs: number): Promise<InitializeResponse> {
  const exited = new Promise<never>((_, reject) => {
    child.once("error", (error) => reject(new AcpAgentError("AGENT_FAILED", `cannot start ${command}: ${errorMessage(error)}`)));
    child.once("close", (code: number | null, signal: NodeJS.Signals | null) => reject(new AcpAgentError("AGENT_EXITED", describeExit(code, signal))));
  });
  exited.catch(() => undefined);
  const answer = Promise.race([
    connection.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, elicitation: { form: {} } },
      clientInfo: { name: "parley", title: "Parley", version: "0.1.0" },
    }),
    exited,
  ]);
  return withinMs(answer, timeoutMs, () => new AcpAgentError("AGENT_FAILED", `did not answer initialize within ${spanOf(timeoutMs)}`));
}

/** How long an agent may take to open a session, load one or set its mode before it counts as hung (Qwen's start: 4–13 s). */
export const OPEN_TIMEOUT_MS = 60_000;

/** "60 s", or "300 ms" below a second. */
export const spanOf = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

/** `promise`, or the error `late()` makes once `ms` passed without it settling. */
export function withinMs<T>(promise: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
