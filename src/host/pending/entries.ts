import type { DownFrame, QuestionRequestedFrame, ResolvedOutcome } from "../../protocol/schemas";
import type { Logger } from "../log";
import type { AnswerRule } from "./answer-rule";
import type { AskResult, UserInteractionError } from "./user-interaction";

/** A question waiting in the pending table: its frame, its waiting call, its stop, and what it was asked with. */
export interface Entry {
  frame: QuestionRequestedFrame;
  resolve(result: AskResult): void;
  reject(error: UserInteractionError): void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  rule: AnswerRule | undefined;
  messageId: string | undefined;
}

/**
 * The questions a pending table holds, by rpcId and counted per session: adding one broadcasts its `question/requested`,
 * claiming one takes it out and broadcasts its `question/resolved`, and either announces the session's change.
 */
export interface Entries {
  get(rpcId: string): Entry | undefined;
  readonly size: number;
  rpcIds(): string[];
  /** Every pending frame, oldest first, as first sent. */
  frames(): QuestionRequestedFrame[];
  countFor(sessionId: string): number;
  onChange(listener: (sessionId: string) => void): () => void;
  /** Holds the question, then announces it (logged, the session's change, its frame broadcast) once `held` ran. */
  add(entry: Entry, held?: () => void): void;
  /** Takes the question out as resolved with `outcome`; null when it is not pending. */
  claim(rpcId: string, outcome: ResolvedOutcome): Entry | null;
}

export function createEntries(broadcast: (frame: DownFrame) => void, log: Logger, burst: (work: () => void) => void = (work) => work()): Entries {
  const entries = new Map<string, Entry>();
  const perSession = new Map<string, number>();
  const count = (sessionId: string, delta: number) => {
    const next = (perSession.get(sessionId) ?? 0) + delta;
    if (next === 0) perSession.delete(sessionId);
    else perSession.set(sessionId, next);
  };
  const listeners = new Set<(sessionId: string) => void>();
  const changed = (sessionId: string) => {
    for (const listener of listeners) listener(sessionId);
  };
  return {
    get: (rpcId) => entries.get(rpcId),
    get size() {
      return entries.size;
    },
    rpcIds: () => [...entries.keys()],
    frames: () => [...entries.values()].map((entry) => entry.frame),
    countFor: (sessionId) => perSession.get(sessionId) ?? 0,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    add(entry, held) {
      const { frame } = entry;
      const { rpcId, sessionId } = frame;
      entries.set(rpcId, entry);
      count(sessionId, 1);
      entry.signal?.addEventListener("abort", entry.onAbort, { once: true });
      held?.();
      log({ event: "question/requested", rpcId, sessionId, questions: frame.questions.length });
      // The session's change (its state, published by a listener) and the question leave in one write, the question last:
      // a tab holds a session's row until its next paint but applies a question at once, so both render together.
      burst(() => {
        changed(sessionId);
        broadcast(frame);
      });
    },
    claim(rpcId, outcome) {
      const entry = entries.get(rpcId);
      if (!entry) return null;
      entries.delete(rpcId);
      count(entry.frame.sessionId, -1);
      entry.signal?.removeEventListener("abort", entry.onAbort);
      const { sessionId } = entry.frame;
      burst(() => {
        broadcast({ type: "question/resolved", rpcId, sessionId, outcome });
        log({ event: "question/resolved", rpcId, sessionId, outcome });
        changed(sessionId);
      });
      return entry;
    },
  };
}
