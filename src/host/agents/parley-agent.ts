import { randomUUID } from "node:crypto";
import { isTurnFailureCode, type TurnFailureCode } from "../../protocol/errors";
import { buildHistory } from "../sessions/history";
import type { Logger } from "../log";
import type { Model, ModelToolCall } from "../models/types";
import { StorageError } from "../storage-error";
import type { StoredMessage } from "../store";
import type { ToolDoor } from "../tools/registry";
import type { Agent, AgentReport, TurnEnd } from "../sessions/agent";

/** How often a streaming reply's text is written while it arrives, so a crash loses at most this much of what was shown. */
export const STREAM_FLUSH_MS = 1000;

export interface ParleyAgentOptions {
  model: Model;
  tools: Pick<ToolDoor, "list">;
  /** The session's transcript, from which each model step's history is built. */
  transcript(sessionId: string): Promise<StoredMessage[]>;
  maxSteps: number;
  log: Logger;
}

/** Parley's own agent: a model and the tool door in a loop, a model step streaming its reply and collecting calls, then the calls. */
export function createParleyAgent(options: ParleyAgentOptions): Agent {
  const { model, log } = options;
  const now = () => new Date().toISOString();

  /** One streaming reply row: created on the first text, written at least every STREAM_FLUSH_MS, closed at the end of the step. */
  function createReplyWriter(report: AgentReport, sessionId: string, stepId: string) {
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
      flushes = flushes.catch(() => undefined).then(() => report.save(text));
      return flushes;
    };
    return {
      async append(delta: string) {
        if (!row) {
          row = { id: report.newId(), sessionId, role: "assistant", createdAt: now(), text: "", step: stepId, streaming: true };
          report.streaming(row, true);
          await report.write(row, true);
          flushedAt = performance.now();
        }
        row.text += delta;
        report.delta(row, delta);
        if (performance.now() - flushedAt >= STREAM_FLUSH_MS) await flush();
        else if (flushTimer === null) {
          flushTimer = setTimeout(() => {
            flush().catch((error: unknown) => log({ event: "message/flush-failed", sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" }));
          }, flushedAt + STREAM_FLUSH_MS - performance.now());
        }
      },
      /** Writes the final text; after a storage failure the row is shown as interrupted and its write only attempted. */
      async close(failure: unknown) {
        if (!row) return;
        if (flushTimer !== null) clearTimeout(flushTimer);
        flushTimer = null;
        await flushes.catch(() => undefined);
        report.streaming(row, false);
        const final: StoredMessage = { ...row, streaming: false, ...(failure instanceof StorageError ? { interrupted: true } : {}) };
        if (failure instanceof StorageError) await report.writeAfterFailure(final, false);
        else await report.write(final, false);
      },
    };
  }

  /** Step 1 of a model step: stream the model's reply and collect its tool calls. */
  async function streamModelStep(report: AgentReport, sessionId: string, stepId: string, signal: AbortSignal): Promise<{ calls: ModelToolCall[]; failure: unknown }> {
    const history = buildHistory(await options.transcript(sessionId));
    const reply = createReplyWriter(report, sessionId, stepId);
    const calls: ModelToolCall[] = [];
    let failure: unknown = null;
    try {
      for await (const event of model.step({ history, tools: options.tools.list(), signal })) {
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

  /** An assistant row the agent writes itself to end a turn that failed: the reason as text, its code as the row's failure. */
  async function endWith(report: AgentReport, sessionId: string, text: string, code: TurnFailureCode): Promise<TurnEnd> {
    await report.write({ id: report.newId(), sessionId, role: "assistant", createdAt: now(), text, step: randomUUID(), failure: { code } }, true);
    return { reason: "failed", code };
  }

  return {
    /** The loop: model step, then its tool calls, until the model answers without calls, fails, is stopped or runs out of steps. */
    async prompt({ sessionId, signal }, report) {
      for (let step = 0; ; step++) {
        if (step >= options.maxSteps) return endWith(report, sessionId, `Stopped after ${options.maxSteps} model steps without a final answer (PARLEY_MAX_STEPS).`, "STEP_LIMIT");
        const stepId = randomUUID();
        const { calls, failure } = await streamModelStep(report, sessionId, stepId, signal);
        if (failure instanceof StorageError) throw failure;
        if (signal.aborted) return { reason: "stopped" };
        if (failure !== null) {
          const code = (failure as { code?: unknown }).code;
          log({ event: "model/failed", sessionId, model: model.name, code: typeof code === "string" ? code : null });
          return endWith(report, sessionId, `Error: the model failed: ${failure instanceof Error ? failure.message : String(failure)}`, typeof code === "string" && isTurnFailureCode(code) ? code : "MODEL_FAILED");
        }
        if (calls.length === 0) return { reason: "done" };
        for (const call of calls) {
          await report.callTool(stepId, call, signal);
          if (signal.aborted) return { reason: "stopped" };
        }
      }
    },
  };
}
