import { randomUUID } from "node:crypto";
import type { DownFrame, Message, Session, SessionAgent, SessionState } from "../protocol/schemas";
import { buildHistory } from "./history";
import type { Logger } from "./log";
import type { Model, ModelToolCall } from "./models/types";
import type { Store, StoredMessage, StoredSession } from "./store";
import { errorOutcome, type ToolOutcome, type ToolRegistry } from "./tools/registry";

export const DEFAULT_TITLE = "New chat";
const TITLE_CHARS = 60;

export interface ChatOptions {
  store: Store;
  model: Model;
  tools: ToolRegistry;
  broadcast(frame: DownFrame): void;
  pendingCount(sessionId: string): number;
  log: Logger;
  maxSteps: number;
}

export type PostResult = { ok: true; message: Message } | { ok: false; reason: "not-found" | "turn-running" };

/** A tool call from an outside agent (an MCP client): already-parsed arguments, no model behind it. */
export interface OutsideToolCall {
  callId: string;
  name: string;
  args: unknown;
}

/** Sessions, transcripts and the agent loop: one turn per session at a time. */
export interface Chat {
  listSessions(): Session[];
  createSession(title?: string, agent?: SessionAgent): Session;
  getSession(id: string): { session: Session; messages: Message[] } | null;
  postMessage(sessionId: string, text: string): PostResult;
  /**
   * Runs an outside agent's tool call in the session, recorded as a tool row like the model's own;
   * Stop, deletion and shutdown abort it. Null when the session does not exist.
   */
  callTool(sessionId: string, call: OutsideToolCall, context: { signal: AbortSignal; onRequested?(rpcId: string): void }): Promise<ToolOutcome | null>;
  /** Aborts the session's running turn and outside tool calls; null when the session does not exist. */
  abort(sessionId: string): Promise<boolean | null>;
  deleteSession(id: string): Promise<boolean>;
  /** Re-broadcasts the session when its computed state changed. */
  refresh(sessionId: string): void;
  /** Aborts every turn and waits for them to end. */
  stop(): Promise<void>;
}

interface Turn {
  controller: AbortController;
  done: Promise<void>;
}

/** A title from the first user message: whitespace collapsed, at most 60 characters. */
export function titleFrom(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const points = [...flat];
  if (points.length === 0) return DEFAULT_TITLE;
  return points.length <= TITLE_CHARS ? flat : `${points.slice(0, TITLE_CHARS - 1).join("").trimEnd()}…`;
}

function toWire(message: StoredMessage): Message {
  const { step: _step, rawArgs: _rawArgs, ...wire } = message;
  return wire;
}

function plainObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function createChat(options: ChatOptions): Chat {
  const { store, model, tools, log } = options;
  const turns = new Map<string, Turn>();
  /** Outside agents' tool calls in flight, per session. */
  const outside = new Map<string, Set<Turn>>();
  /** In memory only: after a restart an outside agent's session reads as a plain chat. */
  const agents = new Map<string, SessionAgent>();
  const lastState = new Map<string, SessionState>();
  /** Assistant rows still streaming: the store holds their text only once the step ends. */
  const streaming = new Map<string, StoredMessage>();

  const now = () => new Date().toISOString();
  const stateOf = (id: string): SessionState => (options.pendingCount(id) > 0 ? "waiting" : turns.has(id) || outside.has(id) ? "running" : "idle");
  const toSession = (row: StoredSession): Session => {
    const agent = agents.get(row.id);
    return { id: row.id, title: row.title, createdAt: row.createdAt, updatedAt: row.updatedAt, state: stateOf(row.id), ...(agent ? { agent } : {}) };
  };

  /** Aborts every call of the session (its turn and outside calls) and waits for them; false when none ran. */
  async function abortAll(sessionId: string): Promise<boolean> {
    const running = [...(turns.has(sessionId) ? [turns.get(sessionId)!] : []), ...(outside.get(sessionId) ?? [])];
    for (const turn of running) turn.controller.abort();
    await Promise.all(running.map((turn) => turn.done));
    return running.length > 0;
  }

  function publishSession(row: StoredSession) {
    const session = toSession(row);
    lastState.set(row.id, session.state);
    options.broadcast({ type: "session/upserted", session });
  }

  function publishMessage(message: StoredMessage) {
    options.broadcast({ type: "message/upserted", message: toWire(message) });
  }

  function touch(sessionId: string) {
    const row = store.getSession(sessionId);
    if (!row) return;
    const updated = { ...row, updatedAt: now() };
    store.updateSession(updated);
    publishSession(updated);
  }

  function addAssistant(sessionId: string, text: string) {
    const message: StoredMessage = { id: randomUUID(), sessionId, role: "assistant", createdAt: now(), text, step: randomUUID() };
    store.insertMessage(message);
    publishMessage(message);
  }

  async function runToolCall(sessionId: string, step: string, call: ModelToolCall, signal: AbortSignal, onRequested?: (rpcId: string) => void): Promise<ToolOutcome> {
    let parsed: { ok: true; value: unknown } | { ok: false; problem: string };
    try {
      parsed = { ok: true, value: JSON.parse(call.arguments) };
    } catch (error) {
      parsed = { ok: false, problem: (error as Error).message };
    }
    const row: StoredMessage = {
      id: randomUUID(),
      sessionId,
      role: "tool",
      createdAt: now(),
      tool: { callId: call.callId, name: call.name, args: parsed.ok ? plainObject(parsed.value) : {}, status: "running" },
      step,
      rawArgs: call.arguments,
    };
    store.insertMessage(row);
    publishMessage(row);
    log({ event: "tool/started", sessionId, tool: call.name, callId: call.callId });

    const outcome: ToolOutcome = parsed.ok
      ? await tools.execute(call.name, parsed.value, { signal, sessionId, ...(onRequested ? { onRequested } : {}) })
      : errorOutcome({ name: "ToolError", code: "INVALID_ARGS", message: `arguments are not valid JSON: ${parsed.problem}` });
    const status = outcome.isError ? (signal.aborted ? "stopped" : "error") : "ok";
    const finished: StoredMessage = {
      ...row,
      tool: { ...row.tool!, status, result: outcome.text, ...(outcome.error ? { error: outcome.error } : {}) },
    };
    store.updateMessage(finished);
    publishMessage(finished);
    log({ event: "tool/finished", sessionId, tool: call.name, callId: call.callId, status, code: outcome.error?.code });
    return outcome;
  }

  async function runTurn(sessionId: string, signal: AbortSignal) {
    for (let step = 0; ; step++) {
      if (step >= options.maxSteps) {
        addAssistant(sessionId, `Stopped after ${options.maxSteps} model steps without a final answer (PARLEY_MAX_STEPS).`);
        return;
      }
      const stepId = randomUUID();
      const history = buildHistory(store.listMessages(sessionId));
      let assistant: StoredMessage | null = null;
      const calls: ModelToolCall[] = [];
      let failure: unknown = null;
      try {
        for await (const event of model.step({ history, tools: tools.list(), signal })) {
          if (signal.aborted) break;
          if (event.type === "tool-call") {
            calls.push(event.call);
            continue;
          }
          if (event.delta === "") continue;
          if (!assistant) {
            assistant = { id: randomUUID(), sessionId, role: "assistant", createdAt: now(), text: "", step: stepId };
            store.insertMessage(assistant);
            streaming.set(assistant.id, assistant);
            publishMessage(assistant);
          }
          assistant.text += event.delta;
          options.broadcast({ type: "message/delta", sessionId, messageId: assistant.id, text: event.delta });
        }
      } catch (error) {
        failure = error;
      }
      if (assistant) {
        store.updateMessage(assistant);
        streaming.delete(assistant.id);
        publishMessage(assistant);
      }
      if (signal.aborted) return;
      if (failure !== null) {
        const code = (failure as { code?: unknown }).code;
        log({ event: "model/failed", sessionId, model: model.name, code: typeof code === "string" ? code : null });
        addAssistant(sessionId, `Error: the model failed: ${failure instanceof Error ? failure.message : String(failure)}`);
        return;
      }
      if (calls.length === 0) return;
      for (const call of calls) {
        await runToolCall(sessionId, stepId, call, signal);
        if (signal.aborted) return;
      }
    }
  }

  function startTurn(sessionId: string) {
    const controller = new AbortController();
    const turn: Turn = { controller, done: Promise.resolve() };
    turns.set(sessionId, turn);
    log({ event: "turn/started", sessionId });
    turn.done = (async () => {
      try {
        await runTurn(sessionId, controller.signal);
      } catch (error) {
        log({ event: "turn/failed", sessionId, error: error instanceof Error ? error.message : "unknown" });
      }
      turns.delete(sessionId);
      log({ event: "turn/ended", sessionId, aborted: controller.signal.aborted });
      try {
        touch(sessionId);
      } catch (error) {
        log({ event: "turn/failed", sessionId, error: error instanceof Error ? error.message : "unknown" });
      }
    })();
  }

  return {
    listSessions: () => store.listSessions().map(toSession),

    createSession(title, agent) {
      const trimmed = title?.trim();
      const stamp = now();
      const row: StoredSession = { id: randomUUID(), title: trimmed || DEFAULT_TITLE, autoTitle: !trimmed, createdAt: stamp, updatedAt: stamp };
      store.insertSession(row);
      if (agent) agents.set(row.id, agent);
      publishSession(row);
      return toSession(row);
    },

    getSession(id) {
      const row = store.getSession(id);
      if (!row) return null;
      const messages = store.listMessages(id).map((message) => toWire(streaming.get(message.id) ?? message));
      return { session: toSession(row), messages };
    },

    postMessage(sessionId, text) {
      const row = store.getSession(sessionId);
      if (!row) return { ok: false, reason: "not-found" };
      if (turns.has(sessionId)) return { ok: false, reason: "turn-running" };
      const stamp = now();
      const message: StoredMessage = { id: randomUUID(), sessionId, role: "user", createdAt: stamp, text };
      store.insertMessage(message);
      publishMessage(message);
      const updated: StoredSession = row.autoTitle ? { ...row, title: titleFrom(text), autoTitle: false, updatedAt: stamp } : { ...row, updatedAt: stamp };
      store.updateSession(updated);
      startTurn(sessionId);
      publishSession(updated);
      return { ok: true, message: toWire(message) };
    },

    async callTool(sessionId, call, context) {
      if (!store.getSession(sessionId)) return null;
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      if (context.signal.aborted) controller.abort();
      else context.signal.addEventListener("abort", onAbort, { once: true });
      const modelCall: ModelToolCall = { callId: call.callId, name: call.name, arguments: JSON.stringify(call.args ?? {}) };
      const turn: Turn = { controller, done: Promise.resolve() };
      const calls = outside.get(sessionId) ?? new Set<Turn>();
      calls.add(turn);
      outside.set(sessionId, calls);
      const running = runToolCall(sessionId, randomUUID(), modelCall, controller.signal, context.onRequested);
      turn.done = running.then(
        () => undefined,
        () => undefined,
      );
      try {
        return await running;
      } finally {
        context.signal.removeEventListener("abort", onAbort);
        calls.delete(turn);
        if (calls.size === 0) outside.delete(sessionId);
        touch(sessionId);
      }
    },

    async abort(sessionId) {
      if (!store.getSession(sessionId)) return null;
      return abortAll(sessionId);
    },

    async deleteSession(id) {
      if (!store.getSession(id)) return false;
      await abortAll(id);
      if (!store.deleteSession(id)) return false;
      lastState.delete(id);
      agents.delete(id);
      options.broadcast({ type: "session/deleted", sessionId: id });
      return true;
    },

    refresh(sessionId) {
      if ((lastState.get(sessionId) ?? "idle") === stateOf(sessionId)) return;
      const row = store.getSession(sessionId);
      if (row) publishSession(row);
    },

    async stop() {
      const running = [...turns.values(), ...[...outside.values()].flatMap((calls) => [...calls])];
      for (const turn of running) turn.controller.abort();
      await Promise.all(running.map((turn) => turn.done));
    },
  };
}
