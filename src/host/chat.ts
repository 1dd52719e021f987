import { randomUUID } from "node:crypto";
import type { DownFrame, McpToolCall, Message, QuestionOrigin, Session, SessionAgent, SessionState, ToolCall, ToolStatus } from "../protocol/schemas";
import { answeredRow, buildHistory } from "./history";
import type { Logger } from "./log";
import type { Model, ModelToolCall } from "./models/types";
import { StorageError } from "./storage-error";
import { encodeCursor } from "./session-page";
import type { McpTools } from "./mcp-client/manager";
import type { SessionPage, Store, StoredMedia, StoredMessage, StoredSession } from "./store";
import { createMcpCalls, MCP_TOOL_PREFIX } from "./tools/mcp-calls";
import { errorOutcome, type ToolOutcome, type ToolRegistry } from "./tools/registry";
import type { AcceptedAnswer } from "./pending-table";
import type { UserInteraction } from "./user-interaction";

export const DEFAULT_TITLE = "New chat";
const TITLE_CHARS = 60;

export interface ChatOptions {
  store: Store;
  model: Model;
  tools: ToolRegistry;
  broadcast(frame: DownFrame): void;
  pendingCount(sessionId: string): number;
  /** In a cluster: the state another host last published for a session whose turn runs there. */
  remoteState?(sessionId: string): SessionState | undefined;
  log: Logger;
  maxSteps: number;
  /** The configured MCP servers' tools, offered to the model beside Parley's own; calls not read-only or auto-approved ask through `interaction`. */
  mcp?: { tools: Pick<McpTools, "tools" | "call">; interaction: Pick<UserInteraction, "ask"> };
}

/** A tool a human allowed for one chat with `Allow for this chat` (docs/protocol.md, mcp-grants). */
export interface Grant {
  server: string;
  tool: string;
  grantedAt: string;
}

export type PostResult = { ok: true; message: Message } | { ok: false; reason: "not-found" | "turn-running" | "agent-session" };

/** A tool call from an outside agent (an MCP client): already-parsed arguments, no model behind it. */
export interface OutsideToolCall {
  callId: string;
  name: string;
  args: unknown;
}

/** Sessions, transcripts and the agent loop: one turn per session at a time. */
export interface Chat {
  /** Every session, or one page of them (newest first), with the cursor of the next page. */
  listSessions(page?: SessionPage): Promise<{ sessions: Session[]; next: string | null }>;
  /** Renames a session (its title is no longer automatic); null when it does not exist. */
  renameSession(id: string, title: string): Promise<Session | null>;
  createSession(title?: string, agent?: SessionAgent): Promise<Session>;
  getSession(id: string): Promise<{ session: Session; messages: Message[] } | null>;
  /** The session's grants, oldest first; null when the session does not exist. */
  listGrants(sessionId: string): Promise<Grant[] | null>;
  /** Revokes a grant, so the tool asks again; null when the session does not exist, false when there was no such grant. */
  revokeGrant(sessionId: string, server: string, tool: string): Promise<boolean | null>;
  /** An image a tool returned, as the host keeps it; null when there is none with that id. */
  getMedia(id: string): Promise<StoredMedia | null>;
  postMessage(sessionId: string, text: string): Promise<PostResult>;
  /**
   * Runs an outside agent's tool call in the session, recorded as a tool row like the model's own;
   * Stop, deletion and shutdown abort it. Null when the session does not exist.
   */
  callTool(sessionId: string, call: OutsideToolCall, context: { signal: AbortSignal; onRequested?(rpcId: string): void; origin?: QuestionOrigin }): Promise<ToolOutcome | null>;
  /** Aborts the session's running turn and outside tool calls; null when the session does not exist. */
  abort(sessionId: string): Promise<boolean | null>;
  deleteSession(id: string): Promise<boolean>;
  /** Re-broadcasts the session when its computed state changed. */
  refresh(sessionId: string): Promise<void>;
  /** Aborts every turn and waits for them to end. */
  stop(): Promise<void>;
  /** The sessions whose turn this host is starting or running now (its agent's turns, not outside calls). */
  turnSessions(): string[];
  /**
   * Writes an accepted answer into the tool row that asked, marked interrupted until the tool returns, so a crash before then
   * keeps it (docs/protocol.md, respond-durable); rejects with the StorageError when the write failed. Nothing for a row
   * that is not running here or a tool whose result is more than the answer.
   */
  commitAnswer(answer: AcceptedAnswer): Promise<void>;
  /** Rows whose last write failed and is retried until storage takes it. */
  unsettledRows(): number;
}

interface Turn {
  controller: AbortController;
  done: Promise<void>;
}

/** Bidi embedding, override and isolate controls and marks: a title never carries them, so no title can reorder what sits beside it. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** A title as the sidebar and the header show it: bidi controls removed, whitespace collapsed. */
export function cleanTitle(text: string): string {
  return text.replace(BIDI_CONTROLS, "").replace(/\s+/g, " ").trim();
}

/** A title from the first non-empty line of a message: bidi controls removed, whitespace collapsed, at most 60 characters. */
export function titleFrom(text: string): string {
  const line = text.split("\n").find((part) => cleanTitle(part) !== "") ?? "";
  const flat = cleanTitle(line);
  const points = [...flat];
  if (points.length === 0) return DEFAULT_TITLE;
  return points.length <= TITLE_CHARS ? flat : `${points.slice(0, TITLE_CHARS - 1).join("").trimEnd()}…`;
}

function toWire(message: StoredMessage): Message {
  const { step: _step, rawArgs: _rawArgs, streaming: _streaming, ...wire } = message;
  return wire;
}

/** Scripted-model commands whose text is arguments, not words: the chat is titled from the call they make instead. */
const COMMAND_WITH_ARGUMENTS = /^\/(?:ask|plan|tool)\s/;

/** How often a streaming reply's text is written while it arrives, so a crash loses at most this much of what was shown. */
export const STREAM_FLUSH_MS = 1000;
/** How often rows whose write failed are written again, until storage takes them. */
export const RETRY_WRITES_MS = 1000;


/** The transcript text of a turn that ended on a failure the model did not cause. */
export function turnFailureText(error: unknown): string {
  if (error instanceof StorageError) return `Error: ${error.code}: ${error.message}`;
  return `Error: the turn failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** Model-written arguments: JSON, nested at most MAX_ARGUMENT_DEPTH levels, checked before parsing so no depth can overflow the stack. */
export const MAX_ARGUMENT_DEPTH = 64;

export function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") {
      if (++depth > MAX_ARGUMENT_DEPTH) return { ok: false, problem: `arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels` };
    } else if (char === "}" || char === "]") depth--;
  }
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, problem: `arguments are not valid JSON: ${(error as Error).message}` };
  }
}

/** A chat title from the first question's header (else its text) or a plan's first line; null when the arguments name none. */
export function titleFromToolArgs(name: string, args: unknown): string | null {
  const record = plainObject(args);
  if (name === "ask_user_question" && Array.isArray(record.questions)) {
    const first = plainObject(record.questions[0]);
    const text = [first.header, first.question].find((value): value is string => typeof value === "string" && value.trim() !== "");
    return text === undefined ? null : titleFrom(text);
  }
  if (name === "present_plan" && typeof record.plan === "string") {
    const line = record.plan.split("\n").map((part) => part.replace(/^[\s#>*\-\d.)]+/, "").trim()).find(Boolean);
    return line === undefined ? null : titleFrom(line);
  }
  return null;
}

function plainObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function createChat(options: ChatOptions): Chat {
  const { store, model, tools, log } = options;
  const turns = new Map<string, Turn>();
  /** Outside agents' tool calls in flight, per session. */
  const outside = new Map<string, Set<Turn>>();
  const lastState = new Map<string, SessionState>();
  /** Sessions whose posted message is being written: a second post waits for the turn like any other. */
  const posting = new Set<string>();
  /** Assistant rows still streaming: the store holds their text only once the step ends. */
  const streaming = new Map<string, StoredMessage>();
  /** Tool rows whose call runs here now, by id: where an accepted answer is written. */
  const runningTools = new Map<string, StoredMessage>();
  /** Rows whose last write failed, by id, with how to write them again (docs/protocol.md, storage-errors). */
  const unsettled = new Map<string, { message: StoredMessage; insert: boolean }>();
  let retryTimer: NodeJS.Timeout | null = null;

  const now = () => new Date().toISOString();
  const mcpCalls = options.mcp
    ? createMcpCalls({
        mcpTools: options.mcp.tools,
        interaction: options.mcp.interaction,
        log,
        grants: {
          has: async (sessionId, server, tool) => (await store.listGrants(sessionId)).some((grant) => grant.server === server && grant.tool === tool),
          add: (sessionId, server, tool) => store.addGrant({ sessionId, server, tool, grantedAt: now() }),
        },
        putMedia: async (sessionId, data, mimeType) => {
          const id = randomUUID();
          await store.putMedia({ id, sessionId, mimeType, data });
          return id;
        },
      })
    : null;
  const stateOf = (id: string): SessionState => (options.pendingCount(id) > 0 ? "waiting" : turns.has(id) || outside.has(id) ? "running" : (options.remoteState?.(id) ?? "idle"));
  const toSession = (row: StoredSession): Session => {
    return { id: row.id, title: row.title, createdAt: row.createdAt, updatedAt: row.updatedAt, state: stateOf(row.id), ...(row.agent ? { agent: row.agent } : {}) };
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

  /** Stamps the session and publishes it; the tabs get its state even when the write fails (the failure is rethrown). */
  async function touch(sessionId: string) {
    const row = await store.getSession(sessionId);
    if (!row) return;
    const updated = { ...row, updatedAt: now() };
    try {
      await store.updateSession(updated);
    } finally {
      publishSession(updated);
    }
  }

  /**
   * Writes a row, then publishes it whether or not the write worked: no tab is left showing a state the turn has moved past.
   * A failed write is rethrown, and written again once storage takes it, so the store ends up holding what the tabs saw.
   */
  async function record(message: StoredMessage, insert: boolean) {
    try {
      await (insert ? store.insertMessage(message) : store.updateMessage(message));
    } catch (error) {
      keepTrying(message, insert);
      throw error;
    } finally {
      publishMessage(message);
    }
  }

  /** An assistant row the host writes itself; `failure` marks the one that ends a failed turn. */
  async function addAssistant(sessionId: string, text: string, failure?: string) {
    const message: StoredMessage = { id: randomUUID(), sessionId, role: "assistant", createdAt: now(), text, step: randomUUID(), ...(failure ? { failure: { code: failure } } : {}) };
    await record(message, true);
  }

  /** Names a chat still titled automatically after the first question or plan its agent asks. */
  async function titleFromCall(sessionId: string, name: string, args: unknown) {
    const row = await store.getSession(sessionId);
    const title = row?.autoTitle ? titleFromToolArgs(name, args) : null;
    if (!row || title === null) return;
    const updated: StoredSession = { ...row, title, autoTitle: false };
    await store.updateSession(updated);
    publishSession(updated);
  }

  async function runToolCall(sessionId: string, step: string, call: ModelToolCall, signal: AbortSignal, onRequested?: (rpcId: string) => void, origin?: QuestionOrigin): Promise<ToolOutcome> {
    const parsed = parseArguments(call.arguments);
    const row: StoredMessage = {
      id: randomUUID(),
      sessionId,
      role: "tool",
      createdAt: now(),
      tool: { callId: call.callId, name: call.name, args: parsed.ok ? plainObject(parsed.value) : {}, status: "running" },
      step,
      rawArgs: call.arguments,
    };
    const mcpCall = mcpCalls !== null && call.name.startsWith(MCP_TOOL_PREFIX);
    if (mcpCall) row.tool = { ...row.tool!, mcp: mcpCalls.describe(call.name) };
    let mcp: McpToolCall | undefined = row.tool!.mcp;
    const updateMcp = async (next: McpToolCall) => {
      mcp = next;
      await record({ ...row, tool: { ...row.tool!, mcp: next } }, false);
    };
    let finished: StoredMessage | null = null;
    runningTools.set(row.id, row);
    try {
      await record(row, true);
      log({ event: "tool/started", sessionId, tool: call.name, callId: call.callId });
      if (parsed.ok) await titleFromCall(sessionId, call.name, parsed.value);

      const outcome: ToolOutcome = !parsed.ok
        ? errorOutcome({ name: "ToolError", code: "INVALID_ARGS", message: parsed.problem })
        : mcpCall
          ? await mcpCalls.run(call.name, parsed.value, { sessionId, signal, update: updateMcp })
          : await tools.execute(call.name, parsed.value, { signal, sessionId, messageId: row.id, ...(onRequested ? { onRequested } : {}), ...(origin ? { origin } : {}) });
      const status: ToolStatus = outcome.isError ? (signal.aborted ? "stopped" : "error") : "ok";
      const ended: ToolCall = { ...row.tool!, status, result: outcome.text, ...(outcome.error ? { error: outcome.error } : {}), ...(outcome.outcome ? { outcome: outcome.outcome } : {}), ...(mcp ? { mcp } : {}) };
      finished = { ...row, tool: ended };
      await record(finished, false);
      log({ event: "tool/finished", sessionId, tool: call.name, callId: call.callId, status, code: outcome.error?.code });
      return outcome;
    } catch (error) {
      if (finished === null) {
        const code = error instanceof StorageError ? error.code : "INTERNAL";
        const failed: StoredMessage = { ...row, tool: { ...row.tool!, ...(mcp ? { mcp } : {}), status: "error", error: { name: "HostError", code, message: error instanceof Error ? error.message : String(error) } } };
        publishMessage(failed);
        await attempt("tool/close-failed", failed, false);
      }
      throw error;
    } finally {
      runningTools.delete(row.id);
    }
  }

  /** Ends a turn on a failure the model did not cause: every tab gets an error row, stored if the store still takes it. */
  async function reportFailure(sessionId: string, error: unknown) {
    log({ event: "turn/failed", sessionId, code: error instanceof StorageError ? error.code : "INTERNAL", error: error instanceof Error ? error.message : "unknown" });
    const code = error instanceof StorageError ? error.code : "INTERNAL";
    const row: StoredMessage = { id: randomUUID(), sessionId, role: "assistant", createdAt: now(), text: turnFailureText(error), step: randomUUID(), failure: { code } };
    publishMessage(row);
    await attempt("turn/error-row-failed", row, true);
  }

  /**
   * Writes a row whose failure is already being reported to the user: a failure is logged, and the row is written again every
   * RETRY_WRITES_MS until storage takes it, so a row a failed turn left running is settled as soon as storage works again.
   */
  async function attempt(event: string, message: StoredMessage, insert: boolean) {
    try {
      await (insert ? store.insertMessage(message) : store.updateMessage(message));
    } catch (error) {
      log({ event, sessionId: message.sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" });
      keepTrying(message, insert);
    }
  }

  function keepTrying(message: StoredMessage, insert: boolean) {
    const earlier = unsettled.get(message.id);
    unsettled.set(message.id, { message, insert: insert || (earlier?.insert ?? false) });
    if (retryTimer !== null) return;
    retryTimer = setInterval(() => void retryWrites(), RETRY_WRITES_MS);
    retryTimer.unref();
  }

  async function retryWrites() {
    for (const [id, { message, insert }] of [...unsettled]) {
      try {
        await (insert ? store.insertMessage(message) : store.updateMessage(message));
      } catch {
        return;
      }
      if (unsettled.get(id)?.message === message) unsettled.delete(id);
      log({ event: "message/written-late", sessionId: message.sessionId, messageId: id });
    }
    if (unsettled.size === 0 && retryTimer !== null) {
      clearInterval(retryTimer);
      retryTimer = null;
    }
  }

  /** One streaming reply row: created on the first text, written at least every STREAM_FLUSH_MS, closed at the end of the step. */
  function createReplyWriter(sessionId: string, stepId: string) {
    let row: StoredMessage | null = null;
    let flushedAt = 0;
    /** Writes text shown and not yet written once STREAM_FLUSH_MS have passed, also while the model pauses between deltas. */
    let flushTimer: NodeJS.Timeout | null = null;
    /** The row's flushes, one after another, so an older text never lands after a newer one or after the final row. */
    let flushes: Promise<void> = Promise.resolve();
    const flush = (): Promise<void> => {
      if (flushTimer !== null) clearTimeout(flushTimer);
      flushTimer = null;
      flushedAt = performance.now();
      const text: StoredMessage = { ...row! };
      flushes = flushes.catch(() => undefined).then(() => store.updateMessage(text));
      return flushes;
    };
    return {
      async append(delta: string) {
        if (!row) {
          row = { id: randomUUID(), sessionId, role: "assistant", createdAt: now(), text: "", step: stepId, streaming: true };
          streaming.set(row.id, row);
          await record(row, true);
          flushedAt = performance.now();
        }
        row.text += delta;
        options.broadcast({ type: "message/delta", sessionId, messageId: row.id, text: delta });
        if (performance.now() - flushedAt >= STREAM_FLUSH_MS) await flush();
        else if (flushTimer === null) {
          flushTimer = setTimeout(() => {
            flush().catch((error: unknown) => log({ event: "message/flush-failed", sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" }));
          }, flushedAt + STREAM_FLUSH_MS - performance.now());
        }
      },
      /** Writes the final text; after a storage failure the row is published as interrupted and its write only attempted. */
      async close(failure: unknown) {
        if (!row) return;
        if (flushTimer !== null) clearTimeout(flushTimer);
        flushTimer = null;
        await flushes.catch(() => undefined);
        streaming.delete(row.id);
        const final: StoredMessage = { ...row, streaming: false, ...(failure instanceof StorageError ? { interrupted: true } : {}) };
        if (failure instanceof StorageError) {
          publishMessage(final);
          await attempt("message/close-failed", final, false);
        } else await record(final, false);
      },
    };
  }

  /** Step 1 of a model step: stream the model's reply and collect its tool calls. */
  async function streamModelStep(sessionId: string, stepId: string, signal: AbortSignal): Promise<{ calls: ModelToolCall[]; failure: unknown }> {
    const history = buildHistory(await store.listMessages(sessionId));
    const reply = createReplyWriter(sessionId, stepId);
    const calls: ModelToolCall[] = [];
    let failure: unknown = null;
    try {
      for await (const event of model.step({ history, tools: [...tools.list(), ...(mcpCalls?.specs() ?? [])], signal })) {
        if (signal.aborted) break;
        if (event.type === "tool-call") calls.push(event.call);
        else if (event.delta !== "") await reply.append(event.delta);
      }
    } catch (error) {
      failure = error;
    }
    await reply.close(failure);
    return { calls, failure };
  }

  /** The agent loop: model step, then its tool calls, until the model answers without calls, fails, is stopped or runs out of steps. */
  async function runTurn(sessionId: string, signal: AbortSignal) {
    for (let step = 0; ; step++) {
      if (step >= options.maxSteps) {
        await addAssistant(sessionId, `Stopped after ${options.maxSteps} model steps without a final answer (PARLEY_MAX_STEPS).`, "STEP_LIMIT");
        return;
      }
      const stepId = randomUUID();
      const { calls, failure } = await streamModelStep(sessionId, stepId, signal);
      if (failure instanceof StorageError) throw failure;
      if (signal.aborted) return;
      if (failure !== null) {
        const code = (failure as { code?: unknown }).code;
        log({ event: "model/failed", sessionId, model: model.name, code: typeof code === "string" ? code : null });
        await addAssistant(sessionId, `Error: the model failed: ${failure instanceof Error ? failure.message : String(failure)}`, typeof code === "string" ? code : "MODEL_FAILED");
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
      let failed = false;
      try {
        await runTurn(sessionId, controller.signal);
      } catch (error) {
        failed = true;
        await reportFailure(sessionId, error);
      }
      turns.delete(sessionId);
      log({ event: "turn/ended", sessionId, aborted: controller.signal.aborted });
      try {
        await touch(sessionId);
      } catch (error) {
        if (failed) log({ event: "turn/touch-failed", sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" });
        else await reportFailure(sessionId, error);
      }
    })();
  }

  return {
    async listSessions(page) {
      const rows = await store.listSessions(page);
      const last = rows.at(-1);
      return { sessions: rows.map(toSession), next: page && last && rows.length === page.limit ? encodeCursor(last) : null };
    },

    async renameSession(id, title) {
      const row = await store.getSession(id);
      if (!row) return null;
      const updated: StoredSession = { ...row, title: cleanTitle(title) || row.title, autoTitle: false, updatedAt: now() };
      await store.updateSession(updated);
      publishSession(updated);
      return toSession(updated);
    },

    async createSession(title, agent) {
      const trimmed = title === undefined ? undefined : cleanTitle(title);
      const stamp = now();
      const row: StoredSession = { id: randomUUID(), title: trimmed || DEFAULT_TITLE, autoTitle: !trimmed, createdAt: stamp, updatedAt: stamp, ...(agent ? { agent } : {}) };
      await store.insertSession(row);
      publishSession(row);
      return toSession(row);
    },

    async getSession(id) {
      const row = await store.getSession(id);
      if (!row) return null;
      const messages = (await store.listMessages(id)).map((message) => toWire(streaming.get(message.id) ?? message));
      return { session: toSession(row), messages };
    },

    async listGrants(sessionId) {
      if (!(await store.getSession(sessionId))) return null;
      return (await store.listGrants(sessionId)).map(({ server, tool, grantedAt }) => ({ server, tool, grantedAt }));
    },

    async revokeGrant(sessionId, server, tool) {
      const row = await store.getSession(sessionId);
      if (!row) return null;
      const removed = await store.removeGrant(sessionId, server, tool);
      if (removed) {
        log({ event: "mcp/grant-revoked", sessionId, server, tool });
        publishSession(row);
      }
      return removed;
    },

    getMedia(id) {
      return store.getMedia(id);
    },

    async postMessage(sessionId, text) {
      const row = await store.getSession(sessionId);
      if (!row) return { ok: false, reason: "not-found" };
      if (row.agent) return { ok: false, reason: "agent-session" };
      if (stateOf(sessionId) !== "idle" || posting.has(sessionId)) return { ok: false, reason: "turn-running" };
      const stamp = now();
      const message: StoredMessage = { id: randomUUID(), sessionId, role: "user", createdAt: stamp, text };
      const titled = row.autoTitle && !COMMAND_WITH_ARGUMENTS.test(text);
      const updated: StoredSession = titled ? { ...row, title: titleFrom(text), autoTitle: false, updatedAt: stamp } : { ...row, updatedAt: stamp };
      // The message goes in last: when either write fails the request fails whole, and no tab has seen a message the store lacks.
      posting.add(sessionId);
      try {
        await store.updateSession(updated);
        await store.insertMessage(message);
      } finally {
        posting.delete(sessionId);
      }
      publishMessage(message);
      startTurn(sessionId);
      publishSession(updated);
      return { ok: true, message: toWire(message) };
    },

    async callTool(sessionId, call, context) {
      if (!(await store.getSession(sessionId))) return null;
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      if (context.signal.aborted) controller.abort();
      else context.signal.addEventListener("abort", onAbort, { once: true });
      const modelCall: ModelToolCall = { callId: call.callId, name: call.name, arguments: JSON.stringify(call.args ?? {}) };
      const turn: Turn = { controller, done: Promise.resolve() };
      const calls = outside.get(sessionId) ?? new Set<Turn>();
      calls.add(turn);
      outside.set(sessionId, calls);
      const running = runToolCall(sessionId, randomUUID(), modelCall, controller.signal, context.onRequested, context.origin);
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
        await touch(sessionId);
      }
    },

    async abort(sessionId) {
      if (!(await store.getSession(sessionId))) return null;
      return abortAll(sessionId);
    },

    async deleteSession(id) {
      if (!(await store.getSession(id))) return false;
      await abortAll(id);
      if (!(await store.deleteSession(id))) return false;
      lastState.delete(id);
      options.broadcast({ type: "session/deleted", sessionId: id });
      return true;
    },

    turnSessions: () => [...new Set([...turns.keys(), ...posting])],

    async commitAnswer(answer) {
      const row = runningTools.get(answer.messageId);
      const outcome = row ? tools.settle(row.tool!.name, row.tool!.args, answer.given) : null;
      if (!row || !outcome) return;
      await store.updateMessage(answeredRow(row, outcome));
    },

    unsettledRows: () => unsettled.size,

    async refresh(sessionId) {
      const unchanged = () => (lastState.get(sessionId) ?? "idle") === stateOf(sessionId);
      if (unchanged()) return;
      const row = await store.getSession(sessionId);
      // Checked again: another refresh may have published the new state while this one read.
      if (row && !unchanged()) publishSession(row);
    },

    async stop() {
      const running = [...turns.values(), ...[...outside.values()].flatMap((calls) => [...calls])];
      for (const turn of running) turn.controller.abort();
      await Promise.all(running.map((turn) => turn.done));
      if (unsettled.size > 0) await retryWrites();
      if (retryTimer !== null) clearInterval(retryTimer);
      retryTimer = null;
    },
  };
}
