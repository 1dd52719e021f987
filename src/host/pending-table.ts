import { randomUUID } from "node:crypto";
import { judgeResponse } from "../protocol/response-verdict";
import type { DownFrame, QuestionRequestedFrame, Receipt, ResolvedOutcome } from "../protocol/schemas";
import { ruleProblem, type AnswerRule } from "./answer-rule";
import type { Logger } from "./log";
import { ABORTED_MESSAGE, CANCELLED_MESSAGE } from "../protocol/tool-messages";
import {
  DISPOSED_MESSAGE,
  UserInteractionError,
  type AskResult,
  type UserInteractionProvider,
} from "./user-interaction";

interface Entry {
  frame: QuestionRequestedFrame;
  resolve(result: AskResult): void;
  reject(error: UserInteractionError): void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  rule: AnswerRule | undefined;
}

/** What the shared store made of an abort: it won, or a response had claimed the question first. */
export type AbortClaim = { won: true } | { won: false; response: unknown };

export interface PendingTableOptions {
  broadcast(frame: DownFrame): void;
  log: Logger;
  /**
   * In a cluster an abort claims the question where answers are claimed, so exactly one of them wins
   * (docs/protocol.md, cluster-abort); without it an abort settles at once.
   */
  claimAbort?(rpcId: string): Promise<AbortClaim>;
}

/** The Web user-interaction provider: host memory is the authority on what is pending. */
export interface PendingTable extends UserInteractionProvider {
  /** Checks a response in PROTOCOL order and claims the question when it is valid. */
  respond(body: unknown): Receipt;
  /** The extra rule the question with this rpcId was asked with, if it is pending here and has one. */
  ruleOf(rpcId: string): AnswerRule | undefined;
  /** Every pending `question/requested` frame, oldest first, as first sent. */
  replay(): QuestionRequestedFrame[];
  countFor(sessionId: string): number;
  /** Calls `listener` after a session's set of pending questions changed; returns the unsubscribe. */
  onChange(listener: (sessionId: string) => void): () => void;
  /**
   * Settles every pending question with ASK_ABORTED "web user-interaction provider was disposed" (at once without a
   * cluster; in one, each abort is claimed first, and a response that claimed the question before it settles it instead).
   */
  dispose(): Promise<void>;
}

/** An accepted verdict judged by the question's own rule (docs/protocol.md, elicitation-content): the refusal, or null. */
export function refusalByRule(verdict: Extract<ReturnType<typeof judgeResponse>, { accepted: true }>, asked: { frame: QuestionRequestedFrame; rule?: AnswerRule | undefined } | undefined): Receipt | null {
  if (verdict.outcome !== "answered" || asked?.rule === undefined) return null;
  const problem = ruleProblem(asked.rule, asked.frame.questions, verdict.answers);
  return problem === null ? null : { accepted: false, reason: "bad-response", detail: problem };
}

export function createPendingTable(options: PendingTableOptions): PendingTable {
  const entries = new Map<string, Entry>();
  const perSession = new Map<string, number>();
  const count = (sessionId: string, delta: number) => {
    const next = (perSession.get(sessionId) ?? 0) + delta;
    if (next === 0) perSession.delete(sessionId);
    else perSession.set(sessionId, next);
  };
  let disposed = false;
  const listeners = new Set<(sessionId: string) => void>();
  const changed = (sessionId: string) => {
    for (const listener of listeners) listener(sessionId);
  };

  function claim(rpcId: string, outcome: ResolvedOutcome): Entry | null {
    const entry = entries.get(rpcId);
    if (!entry) return null;
    entries.delete(rpcId);
    count(entry.frame.sessionId, -1);
    entry.signal?.removeEventListener("abort", entry.onAbort);
    const { sessionId } = entry.frame;
    options.broadcast({ type: "question/resolved", rpcId, sessionId, outcome });
    options.log({ event: "question/resolved", rpcId, sessionId, outcome });
    changed(sessionId);
    return entry;
  }

  /** Judges a response in docs/protocol.md order, then the ask's own extra rule; the verdict and, when refused, its receipt. */
  function judge(body: unknown): { refusal: Receipt } | { verdict: Extract<ReturnType<typeof judgeResponse>, { accepted: true }> } {
    const verdict = judgeResponse(body, (rpcId) => entries.get(rpcId)?.frame);
    if (!verdict.accepted) return { refusal: verdict.receipt };
    const refusal = refusalByRule(verdict, entries.get(verdict.rpcId));
    return refusal ? { refusal } : { verdict };
  }

  /**
   * Settles a pending question as aborted with `message`. In a cluster the abort is claimed like a response first
   * (docs/protocol.md, cluster-abort): when a response claimed the question before it, that response settles it instead.
   */
  async function abort(rpcId: string, message: string): Promise<void> {
    // Once the table is disposed (shutdown), a turn stopped meanwhile is told so too, whichever abort settles first.
    const abortNow = () => claim(rpcId, "aborted")?.reject(new UserInteractionError("ASK_ABORTED", disposed ? DISPOSED_MESSAGE : message));
    if (!options.claimAbort) return abortNow();
    const sessionId = entries.get(rpcId)?.frame.sessionId;
    try {
      const verdict = await options.claimAbort(rpcId);
      if (verdict.won || !entries.has(rpcId)) return abortNow();
      const receipt = respond(verdict.response);
      if (receipt.accepted) return;
      options.log({ event: "question/abort-response-refused", rpcId, sessionId, reason: receipt.reason });
    } catch (error) {
      options.log({ event: "question/abort-unconfirmed", rpcId, sessionId, error: error instanceof Error ? error.message : String(error) });
    }
    abortNow();
  }

  function respond(body: unknown): Receipt {
    const judged = judge(body);
    if ("refusal" in judged) return judged.refusal;
    const { verdict } = judged;
    const entry = claim(verdict.rpcId, verdict.outcome)!;
    if (verdict.outcome === "cancelled") entry.reject(new UserInteractionError("ASK_CANCELLED", CANCELLED_MESSAGE));
    else entry.resolve({ answers: verdict.answers });
    return { accepted: true };
  }

  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ask(request) {
      if (!request.sessionId) {
        return Promise.reject(new UserInteractionError("ASK_MISSING_SESSION", "ask_user_question needs the session it belongs to"));
      }
      if (disposed) return Promise.reject(new UserInteractionError("ASK_ABORTED", DISPOSED_MESSAGE));
      if (request.signal?.aborted) return Promise.reject(new UserInteractionError("ASK_ABORTED", ABORTED_MESSAGE));
      const sessionId = request.sessionId;
      const rpcId = randomUUID();
      const frame: QuestionRequestedFrame = {
        type: "question/requested",
        rpcId,
        sessionId,
        questions: request.questions,
        createdAt: new Date().toISOString(),
        ...(request.origin ? { origin: request.origin } : {}),
        ...(request.approval ? { approval: request.approval } : {}),
      };
      return new Promise<AskResult>((resolve, reject) => {
        const onAbort = () => void abort(rpcId, ABORTED_MESSAGE);
        entries.set(rpcId, { frame, resolve, reject, signal: request.signal, onAbort, rule: request.rule });
        count(sessionId, 1);
        request.signal?.addEventListener("abort", onAbort, { once: true });
        request.onRequested?.(rpcId);
        options.log({ event: "question/requested", rpcId, sessionId, questions: request.questions.length });
        changed(sessionId);
        options.broadcast(frame);
      });
    },

    respond,
    ruleOf: (rpcId) => entries.get(rpcId)?.rule,

    replay() {
      return [...entries.values()].map((entry) => entry.frame);
    },

    countFor(sessionId) {
      return perSession.get(sessionId) ?? 0;
    },

    async dispose() {
      disposed = true;
      await Promise.all([...entries.keys()].map((rpcId) => abort(rpcId, DISPOSED_MESSAGE)));
    },
  };
}
