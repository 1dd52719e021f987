import type { AcpRowData } from "../../protocol/schemas";
import type { AcpAgentProcess } from "../acp/client";
import { AcpAgentError } from "../acp/types";
import type { AgentReport, TurnEnd } from "../sessions/agent";
import type { StoredMessage } from "../store";
import { createTurnRows, type createCoalescingWriter } from "./acp-rows";
import { errorText, type Logger } from "../log";

/** The data of a chat's `acp/session` row. */
export type SessionData = Extract<AcpRowData, { type: "session" }>;

/** One chat's live session in its agent's process. */
export interface Binding {
  process: AcpAgentProcess;
  acpSessionId: string;
  /** The chat's latest `acp/session` row, updated in place. */
  row: StoredMessage;
  data: SessionData;
  turn: ReturnType<typeof createTurnRows> | null;
  turnSignal: AbortSignal | null;
  /** While session/load replays the agent's history: the transcript has it already. */
  loading: boolean;
  report: AgentReport;
  writer: ReturnType<typeof createCoalescingWriter>;
  /** A deny reason, sent as the next prompt once the turn ends (ACP has no field for it). */
  reasons: string[];
  /** How long a stopped turn waits for the agent to end its prompt before the chat lets go of the session. */
  cancelGraceMs: number;
  /** Lets go of the session: the process forgets it (what the agent sends for it is refused) and the next prompt binds afresh. */
  abandon(): void;
}

/** What an agent's call gives once the turn was stopped and the agent still had not answered it a grace period later. */
export const ABANDONED = Symbol("abandoned");

/**
 * The agent's answer to `call`, or ABANDONED once `signal` aborted and the agent still had not answered `graceMs` later:
 * an agent that ignores a stop never keeps its chat's turn running. A later failure of `call` is handled here.
 */
export function unlessAbandoned<T>(call: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T | typeof ABANDONED> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => (timer = setTimeout(() => resolve(ABANDONED), graceMs));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    void call.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    });
  });
}

/** An error as one line of text for the log and the failure row (the host's one way of saying it). */
export { errorText };

/** Ends the turn as failed: the failure in the log and as an error row the human sees. */
export async function failTurn(log: Logger, report: AgentReport, sessionId: string, error: unknown): Promise<TurnEnd> {
  const code = error instanceof AcpAgentError && error.code === "AGENT_EXITED" ? "AGENT_EXITED" : "AGENT_FAILED";
  log({ event: "acp/turn-failed", sessionId, code, error: errorText(error).slice(0, 200) });
  await report.write({ id: report.newId(), sessionId, role: "assistant", createdAt: new Date().toISOString(), text: `Error: ${errorText(error)}`, failure: { code } }, true);
  return { reason: "failed", code };
}

/** One prompt through the chat's session; the deny reasons the turn collected follow as the next prompts, shown as the user's. */
export async function runTurn(log: Logger, entry: Binding, sessionId: string, text: string, signal: AbortSignal, report: AgentReport): Promise<TurnEnd> {
  try {
    if (signal.aborted) return { reason: "stopped" };
    return await runPrompts(log, entry, sessionId, text, signal, report);
  } finally {
    // Deny reasons of a turn that failed or stopped go with it, not into the next one.
    entry.reasons = [];
    // What the turn changed in the chat's session row (ready, its mode, commands, usage) is stored before it ends.
    await entry.writer.flush();
  }
}

async function runPrompts(log: Logger, entry: Binding, sessionId: string, text: string, signal: AbortSignal, report: AgentReport): Promise<TurnEnd> {
  for (let prompt: string | undefined = text; prompt !== undefined; prompt = entry.reasons.shift()) {
    if (prompt !== text) {
      await report.write({ id: report.newId(), sessionId, role: "user", createdAt: new Date().toISOString(), text: prompt }, true);
      // Stop while that row was being written: the abort listener below would never hear it.
      if (signal.aborted) return { reason: "stopped" };
    }
    const rows = createTurnRows(report, sessionId, () => signal.aborted);
    entry.turn = rows;
    entry.turnSignal = signal;
    const onAbort = () => void entry.process.cancel(entry.acpSessionId);
    signal.addEventListener("abort", onAbort, { once: true });
    let stop: string | typeof ABANDONED;
    try {
      stop = await unlessAbandoned(entry.process.prompt(entry.acpSessionId, prompt), signal, entry.cancelGraceMs);
    } catch (error) {
      await rows.close().catch((storage: unknown) => {
        // The storage failure is what the user is told; the agent's own failure is in the log.
        log({ event: "acp/turn-failed", sessionId, code: "AGENT_FAILED", error: errorText(error).slice(0, 200) });
        throw storage;
      });
      return failTurn(log, report, sessionId, error);
    } finally {
      signal.removeEventListener("abort", onAbort);
      entry.turn = null;
      entry.turnSignal = null;
    }
    if (stop === ABANDONED) {
      // The agent ignored the stop: the chat is not left running for it; what the agent does next in it is refused.
      log({ event: "acp/cancel-ignored", sessionId, graceMs: entry.cancelGraceMs });
      entry.abandon();
    }
    await rows.close();
    if (signal.aborted || stop === "cancelled") return { reason: "stopped" };
  }
  return { reason: "done" };
}
