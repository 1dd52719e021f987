import { randomUUID } from "node:crypto";
import { parseArguments } from "../../protocol/arguments";
import type { QuestionOrigin, ToolCall, ToolStatus } from "../../protocol/schemas";
import { answeredRow } from "./history";
import type { Logger } from "../log";
import type { ModelToolCall } from "../models/types";
import type { AcceptedAnswer } from "../pending/pending-table";
import { StorageError } from "../storage-error";
import type { Store, StoredMessage } from "../store";
import { errorOutcome, type ToolDoor, type ToolOutcome, type ToolRowPatch } from "../tools/registry";
import { plainObject } from "./titles";
import type { Transcript } from "./transcript";

export interface ToolCallsOptions {
  store: Store;
  transcript: Transcript;
  tools: ToolDoor;
  log: Logger;
  /** Names a chat still titled automatically after a call's arguments (its first question, its plan). */
  retitle(sessionId: string, name: string, args: unknown): Promise<void>;
}

/** Who runs a call besides its session: an outside agent's `/mcp` call names itself and wants the question's rpcId. */
export interface CallExtras {
  onRequested?(rpcId: string): void;
  origin?: QuestionOrigin;
  /**
   * The caller gets the call's outcome even when the write of its end fails (the row is written again later): an outside
   * agent is never told a call failed whose answer the human gave and the host accepted. Parley's own turn leaves it out,
   * and reports the failure as its `[storage-errors]` row.
   */
  outcomeOverStorage?: boolean;
}

/** Tool calls as transcript rows: recorded running, run through the tool door, ended with their outcome; answers written as they are accepted. */
export interface ToolCalls {
  run(sessionId: string, step: string, call: ModelToolCall, signal: AbortSignal, extras?: CallExtras): Promise<ToolOutcome>;
  /**
   * Writes an accepted answer into the tool row that asked, marked interrupted until the tool returns, so a crash before then
   * keeps it (docs/protocol.md, respond-durable); rejects with the StorageError when the write failed. Nothing for a row that is
   * not running here or a tool whose result is more than the answer.
   */
  commitAnswer(answer: AcceptedAnswer): Promise<void>;
}

export function createToolCalls(options: ToolCallsOptions): ToolCalls {
  const { store, transcript, tools, log } = options;
  /** Tool rows whose call runs here now, by id: where an accepted answer is written. */
  const running = new Map<string, StoredMessage>();
  /** Rows whose accepted answer already wrote the call's result: they keep it until the call's end writes it again. */
  const concluded = new Set<string>();

  async function run(sessionId: string, step: string, call: ModelToolCall, signal: AbortSignal, extras: CallExtras = {}): Promise<ToolOutcome> {
    const parsed = parseArguments(call.arguments);
    let patch: ToolRowPatch = tools.describe(call.name);
    const row: StoredMessage = {
      id: randomUUID(),
      sessionId,
      role: "tool",
      createdAt: new Date().toISOString(),
      tool: { callId: call.callId, name: call.name, args: parsed.ok ? plainObject(parsed.value) : {}, status: "running", ...patch },
      step,
      rawArgs: call.arguments,
    };
    const update = async (next: ToolRowPatch) => {
      patch = { ...patch, ...next };
      const current: StoredMessage = { ...row, tool: { ...row.tool!, ...patch } };
      // An answer accepted from now on is written into the row as it stands (an approval card reads its state).
      running.set(row.id, current);
      // A row the answer concluded is not written back to running (a denial the tool records as it returns): a crash
      // before the call's end still finds the answer as the call's result.
      if (concluded.has(row.id)) return;
      await transcript.record(current, false);
    };
    let finished: StoredMessage | null = null;
    running.set(row.id, row);
    try {
      await transcript.record(row, true);
      log({ event: "tool/started", sessionId, tool: call.name, callId: call.callId });
      if (parsed.ok) await options.retitle(sessionId, call.name, parsed.value);

      const outcome: ToolOutcome = !parsed.ok
        ? errorOutcome({ name: "ToolError", code: "INVALID_ARGS", message: parsed.problem })
        : await tools.execute(call.name, parsed.value, { signal, sessionId, messageId: row.id, update, ...(extras.onRequested ? { onRequested: extras.onRequested } : {}), ...(extras.origin ? { origin: extras.origin } : {}) });
      const status: ToolStatus = outcome.isError ? (signal.aborted ? "stopped" : "error") : "ok";
      const ended: ToolCall = { ...row.tool!, ...patch, status, result: outcome.text, ...(outcome.error ? { error: outcome.error } : {}), ...(outcome.outcome ? { outcome: outcome.outcome } : {}) };
      finished = { ...row, tool: ended };
      try {
        await transcript.record(finished, false);
      } catch (error) {
        if (!extras.outcomeOverStorage) throw error;
        log({ event: "tool/close-failed", sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" });
      }
      log({ event: "tool/finished", sessionId, tool: call.name, callId: call.callId, status, code: outcome.error?.code });
      return outcome;
    } catch (error) {
      if (finished === null) {
        const code = error instanceof StorageError ? error.code : "INTERNAL";
        const failed: StoredMessage = { ...row, tool: { ...row.tool!, ...patch, status: "error", error: { name: "HostError", code, message: error instanceof Error ? error.message : String(error) } } };
        transcript.publish(failed);
        await transcript.attempt("tool/close-failed", failed, false);
      }
      throw error;
    } finally {
      running.delete(row.id);
      concluded.delete(row.id);
    }
  }

  return {
    run,
    async commitAnswer(answer) {
      const row = running.get(answer.messageId);
      const effect = row ? tools.settle(row.tool!, answer.given) : null;
      if (!row || !effect) return;
      await store.updateMessage(answeredRow(row, effect));
      if (effect.outcome && running.has(answer.messageId)) concluded.add(answer.messageId);
    },
  };
}
