import { randomUUID } from "node:crypto";
import type { DownFrame, Message, QuestionOrigin, Session, SessionAgent, SessionState } from "../../protocol/schemas";
import type { AgentDirectory, AgentReport } from "./agent";
import type { Logger } from "../log";
import type { ModelToolCall } from "../models/types";
import type { AcceptedAnswer } from "../pending/pending-table";
import { StorageError } from "../storage-error";
import { encodeCursor } from "./session-page";
import type { SessionPage, Store, StoredMedia, StoredMessage, StoredSession } from "../store";
import type { ToolDoor, ToolOutcome } from "../tools/registry";
import type { UserInteraction } from "../pending/user-interaction";
import { COMMAND_WITH_ARGUMENTS, DEFAULT_TITLE, cleanTitle, titleFrom, titleFromToolArgs } from "./titles";
import { createToolCalls } from "./tool-calls";
import { createTranscript, toWire } from "./transcript";

export interface ChatOptions {
  store: Store;
  /** The agent each session's turns run through, by its kind. */
  agents: AgentDirectory;
  /** Every tool an agent or an outside caller may call, behind one door. */
  tools: ToolDoor;
  /** The seam agents ask through. */
  interaction: Pick<UserInteraction, "ask">;
  broadcast(frame: DownFrame): void;
  pendingCount(sessionId: string): number;
  /** In a cluster: the state another host last published for a session whose turn runs there. */
  remoteState?(sessionId: string): SessionState | undefined;
  log: Logger;
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

/** The session service: sessions, transcripts, grants, media, and one turn per session run through its agent. */
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
  /** See ToolCalls.commitAnswer. */
  commitAnswer(answer: AcceptedAnswer): Promise<void>;
  /** Rows whose last write failed and is retried until storage takes it. */
  unsettledRows(): number;
}

interface Turn {
  controller: AbortController;
  done: Promise<void>;
}

/** The transcript text of a turn that ended on a failure the agent did not cause. */
export function turnFailureText(error: unknown): string {
  if (error instanceof StorageError) return `Error: ${error.code}: ${error.message}`;
  return `Error: the turn failed: ${error instanceof Error ? error.message : String(error)}`;
}

export function createChat(options: ChatOptions): Chat {
  const { store, log } = options;
  const turns = new Map<string, Turn>();
  /** Outside agents' tool calls in flight, per session. */
  const outside = new Map<string, Set<Turn>>();
  const lastState = new Map<string, SessionState>();
  /** Sessions whose posted message is being written: a second post waits for the turn like any other. */
  const posting = new Set<string>();
  /** Rows still streaming: the store holds their latest text only once they end. */
  const streaming = new Map<string, StoredMessage>();
  const transcript = createTranscript({ store, broadcast: options.broadcast, log });
  const toolCalls = createToolCalls({ store, transcript, tools: options.tools, log, retitle: titleFromCall });

  const now = () => new Date().toISOString();
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

  /** Names a chat still titled automatically after the first question or plan its agent asks. */
  async function titleFromCall(sessionId: string, name: string, args: unknown) {
    const row = await store.getSession(sessionId);
    const title = row?.autoTitle ? titleFromToolArgs(name, args) : null;
    if (!row || title === null) return;
    const updated: StoredSession = { ...row, title, autoTitle: false };
    await store.updateSession(updated);
    publishSession(updated);
  }

  /** Ends a turn on a failure the agent did not cause: every tab gets an error row, stored if the store still takes it. */
  async function reportFailure(sessionId: string, error: unknown) {
    const code = error instanceof StorageError ? error.code : "INTERNAL";
    log({ event: "turn/failed", sessionId, code, error: error instanceof Error ? error.message : "unknown" });
    const row: StoredMessage = { id: randomUUID(), sessionId, role: "assistant", createdAt: now(), text: turnFailureText(error), step: randomUUID(), failure: { code } };
    transcript.publish(row);
    await transcript.attempt("turn/error-row-failed", row, true);
  }

  /** What an agent may do in the session, and nothing more. */
  function reportFor(sessionId: string): AgentReport {
    return {
      newId: () => randomUUID(),
      write: (row, insert) => transcript.record(row, insert),
      async writeAfterFailure(row, insert) {
        transcript.publish(row);
        await transcript.attempt("message/close-failed", row, insert);
      },
      delta: (row, text) => transcript.delta(sessionId, row.id, text),
      streaming(row, active) {
        if (active) streaming.set(row.id, row);
        else streaming.delete(row.id);
      },
      save: (row) => store.updateMessage(row),
      callTool: (step: string, call: ModelToolCall, signal: AbortSignal) => toolCalls.run(sessionId, step, call, signal),
      ask: (request) => options.interaction.ask({ ...request, sessionId }),
    };
  }

  function startTurn(row: StoredSession, text: string) {
    const sessionId = row.id;
    const agent = options.agents.forSession(row)!;
    const controller = new AbortController();
    const turn: Turn = { controller, done: Promise.resolve() };
    turns.set(sessionId, turn);
    log({ event: "turn/started", sessionId });
    turn.done = (async () => {
      let failed = false;
      try {
        const end = await agent.prompt({ sessionId, text, signal: controller.signal }, reportFor(sessionId));
        log({ event: "turn/ended", sessionId, reason: end.reason, ...(end.reason === "failed" ? { code: end.code } : {}), aborted: controller.signal.aborted });
      } catch (error) {
        failed = true;
        await reportFailure(sessionId, error);
      }
      turns.delete(sessionId);
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
      if (options.agents.forSession(row) === null) return { ok: false, reason: "agent-session" };
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
      transcript.publish(message);
      startTurn(updated, text);
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
      const running = toolCalls.run(sessionId, randomUUID(), modelCall, controller.signal, { ...(context.onRequested ? { onRequested: context.onRequested } : {}), ...(context.origin ? { origin: context.origin } : {}) });
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

    commitAnswer: (answer) => toolCalls.commitAnswer(answer),

    unsettledRows: () => transcript.unsettled(),

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
      await transcript.close();
    },
  };
}
