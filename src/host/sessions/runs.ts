import { randomUUID } from "node:crypto";
import type { QuestionOrigin } from "../../protocol/schemas";
import type { Logger } from "../log";
import type { ModelToolCall } from "../models/types";
import type { UserInteraction } from "../pending/user-interaction";
import { StorageError } from "../storage-error";
import type { Store, StoredMessage, StoredSession } from "../store";
import type { ToolOutcome } from "../tools/registry";
import type { Agent, AgentReport } from "./agent";
import type { ToolCalls } from "./tool-calls";
import type { Transcript } from "./transcript";

/** A tool call from an outside agent (an MCP client): already-parsed arguments, no model behind it. */
export interface OutsideToolCall {
  callId: string;
  name: string;
  args: unknown;
}

export interface RunsOptions {
  store: Pick<Store, "updateMessage">;
  log: Logger;
  transcript: Transcript;
  toolCalls: ToolCalls;
  /** The seam agents ask through. */
  interaction: Pick<UserInteraction, "ask">;
  /** Stamps the session and publishes it once a run ended (rethrows a failed write). */
  touch(sessionId: string): Promise<void>;
  /** Titles a session as its agent named it, unless the human named it. */
  retitle(sessionId: string, title: string): Promise<void>;
}

/**
 * What runs in a chat: its agent's turn, one per session, which reports through an AgentReport and whose failure becomes an
 * error row; and outside agents' tool calls, run as tool rows like the model's own. Each can be stopped and waited for.
 */
export interface Runs {
  /** Whether the session's turn or an outside call of it runs now. */
  running(sessionId: string): boolean;
  /** The sessions whose agent's turn runs here now. */
  turnSessions(): string[];
  /** A row as the tabs see it now: with its latest text while it still streams. */
  latest(row: StoredMessage): StoredMessage;
  /** Starts the session's turn through `agent` on the human's `text`. */
  startTurn(row: StoredSession, agent: Agent, text: string): void;
  /** Runs an outside agent's call in the session; Stop, deletion and shutdown abort it. */
  callTool(sessionId: string, call: OutsideToolCall, context: { signal: AbortSignal; onRequested?(rpcId: string): void; origin?: QuestionOrigin }): Promise<ToolOutcome>;
  /** Aborts every run of the session and waits for them; false when none ran. */
  abort(sessionId: string): Promise<boolean>;
  /** Aborts every run and waits for them to end. */
  stop(): Promise<void>;
}

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

/** The transcript text of a turn that ended on a failure the agent did not cause. */
export function turnFailureText(error: unknown): string {
  if (error instanceof StorageError) return `Error: ${error.code}: ${error.message}`;
  return `Error: the turn failed: ${error instanceof Error ? error.message : String(error)}`;
}

export function createRuns(options: RunsOptions): Runs {
  const { log, transcript, toolCalls } = options;
  const turns = new Map<string, Run>();
  /** Outside agents' tool calls in flight, per session. */
  const outside = new Map<string, Set<Run>>();
  /** Rows still streaming: the store holds their latest text only once they end. */
  const streaming = new Map<string, StoredMessage>();
  const now = () => new Date().toISOString();

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
      save: (row) => options.store.updateMessage(row),
      callTool: (step: string, call: ModelToolCall, signal: AbortSignal) => toolCalls.run(sessionId, step, call, signal),
      ask: (request) => options.interaction.ask({ ...request, sessionId }),
      retitle: (title) => options.retitle(sessionId, title),
    };
  }

  function all(): Run[] {
    return [...turns.values(), ...[...outside.values()].flatMap((calls) => [...calls])];
  }

  return {
    running: (sessionId) => turns.has(sessionId) || outside.has(sessionId),
    turnSessions: () => [...turns.keys()],
    latest: (row) => streaming.get(row.id) ?? row,

    startTurn(row, agent, text) {
      const sessionId = row.id;
      const controller = new AbortController();
      const turn: Run = { controller, done: Promise.resolve() };
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
          await options.touch(sessionId);
        } catch (error) {
          if (failed) log({ event: "turn/touch-failed", sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" });
          else await reportFailure(sessionId, error);
        }
      })();
    },

    async callTool(sessionId, call, context) {
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      if (context.signal.aborted) controller.abort();
      else context.signal.addEventListener("abort", onAbort, { once: true });
      const modelCall: ModelToolCall = { callId: call.callId, name: call.name, arguments: JSON.stringify(call.args ?? {}) };
      const run: Run = { controller, done: Promise.resolve() };
      const calls = outside.get(sessionId) ?? new Set<Run>();
      calls.add(run);
      outside.set(sessionId, calls);
      const extras = { outcomeOverStorage: true, ...(context.onRequested ? { onRequested: context.onRequested } : {}), ...(context.origin ? { origin: context.origin } : {}) };
      const running = toolCalls.run(sessionId, randomUUID(), modelCall, controller.signal, extras);
      run.done = running.then(
        () => undefined,
        () => undefined,
      );
      try {
        return await running;
      } finally {
        context.signal.removeEventListener("abort", onAbort);
        calls.delete(run);
        if (calls.size === 0) outside.delete(sessionId);
        // The call's outcome goes to its caller whether or not the chat's stamp is written; the tabs get its state either way.
        await options.touch(sessionId).catch((error: unknown) => log({ event: "tool/touch-failed", sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" }));
      }
    },

    async abort(sessionId) {
      const running = [...(turns.has(sessionId) ? [turns.get(sessionId)!] : []), ...(outside.get(sessionId) ?? [])];
      for (const run of running) run.controller.abort();
      await Promise.all(running.map((run) => run.done));
      return running.length > 0;
    },

    async stop() {
      const running = all();
      for (const run of running) run.controller.abort();
      await Promise.all(running.map((run) => run.done));
    },
  };
}
