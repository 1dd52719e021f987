import { randomUUID } from "node:crypto";
import { judgeResponse } from "../../protocol/response-verdict";
import type { AnswerItem, DownFrame, QuestionRequestedFrame, Receipt } from "../../protocol/schemas";
import type { AnswerRule, RuleJudge } from "./answer-rule";
import type { Logger } from "../log";
import { createEntries } from "./entries";
import { ABORTED_MESSAGE, CANCELLED_MESSAGE } from "../../protocol/tool-messages";
import {
  DISPOSED_MESSAGE,
  UserInteractionError,
  type AskResult,
  type UserInteractionProvider,
} from "./user-interaction";

/** What the human gave a waiting question: the answers, or a dismissal. */
export type GivenAnswer = { answers: AnswerItem[] } | "cancelled";

/** An answer or dismissal the table is about to accept, for the question asked for the transcript row `messageId`. */
export interface AcceptedAnswer {
  rpcId: string;
  sessionId: string;
  messageId: string;
  given: GivenAnswer;
}

/** What the shared store made of an abort: it won, or a response had claimed the question first. */
export type AbortClaim = { won: true } | { won: false; response: unknown };

export interface PendingTableOptions {
  broadcast(frame: DownFrame): void;
  /** Runs `work`, whose frames (a question's and its session's change) may leave together (FrameBus.burst); by default it just runs. */
  burst?(work: () => void): void;
  log: Logger;
  /**
   * In a cluster an abort claims the question where answers are claimed, so exactly one of them wins
   * (docs/protocol.md, cluster-abort); without it an abort settles at once.
   */
  claimAbort?(rpcId: string): Promise<AbortClaim>;
  /**
   * Writes an answer where a restart finds it, before the response is accepted (docs/protocol.md, respond-durable): when it
   * throws, the response fails with that error and the question stays pending. Only for questions asked for a transcript row.
   */
  commit?(answer: AcceptedAnswer): Promise<void>;
  /** Judges the rule an ask came with (an elicitation's schema); the table itself knows no kind of rule. */
  judge?: RuleJudge;
  /** At most this many questions wait at once (PARLEY_MAX_PENDING); one more is refused with TOO_MANY_PENDING. Default 1,000. */
  maxPending?: number;
}

/** The Web user-interaction provider: host memory is the authority on what is pending. */
export interface PendingTable extends UserInteractionProvider {
  /**
   * Checks a response in PROTOCOL order, writes it where a restart finds it, and claims the question; rejects with the
   * StorageError when the write failed (the question stays pending). `durable` says the answer is already kept elsewhere
   * (a cluster's pending row): a failed write is then logged, not returned, and the row is settled when storage is back.
   */
  respond(body: unknown, durable?: boolean): Promise<Receipt>;
  /** The transcript row the question with this rpcId was asked for, if it is pending here and has one. */
  messageOf(rpcId: string): string | undefined;
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
export function refusalByRule(
  verdict: Extract<ReturnType<typeof judgeResponse>, { accepted: true }>,
  asked: { frame: QuestionRequestedFrame; rule?: AnswerRule | undefined } | undefined,
  judge: RuleJudge | undefined,
): Receipt | null {
  if (verdict.outcome !== "answered" || asked?.rule === undefined) return null;
  const problem = judge ? judge(asked.rule, asked.frame.questions, verdict.answers) : "this host has no judge for this question's rule; answer it through another host";
  return problem === null ? null : { accepted: false, reason: "bad-response", detail: problem };
}

export const DEFAULT_MAX_PENDING = 1000;

/** Why a question was refused because this host holds the most it may. */
export function tooManyPendingMessage(max: number): string {
  return `this host already holds ${max} pending questions (PARLEY_MAX_PENDING): answer or stop some, then ask again`;
}

export function createPendingTable(options: PendingTableOptions): PendingTable {
  const entries = createEntries(options.broadcast, options.log, options.burst);
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  /** Responses being written: a second response to the same question waits for the first, then finds it settled. */
  const committing = new Map<string, Promise<unknown>>();
  let disposed = false;
  /** Judges a response in docs/protocol.md order, then the ask's own extra rule; the verdict and, when refused, its receipt. */
  function judge(body: unknown): { refusal: Receipt } | { verdict: Extract<ReturnType<typeof judgeResponse>, { accepted: true }> } {
    const verdict = judgeResponse(body, (rpcId) => entries.get(rpcId)?.frame);
    if (!verdict.accepted) return { refusal: verdict.receipt };
    const refusal = refusalByRule(verdict, entries.get(verdict.rpcId), options.judge);
    return refusal ? { refusal } : { verdict };
  }

  /**
   * Settles a pending question as aborted with `message`. In a cluster the abort is claimed like a response first
   * (docs/protocol.md, cluster-abort): when a response claimed the question before it, that response settles it instead.
   */
  async function abort(rpcId: string, message: string): Promise<void> {
    // Once the table is disposed (shutdown), a turn stopped meanwhile is told so too, whichever abort settles first.
    const abortNow = () => entries.claim(rpcId, "aborted")?.reject(new UserInteractionError("ASK_ABORTED", disposed ? DISPOSED_MESSAGE : message));
    // An answer being written when the abort came was first: it settles the question if its write works.
    const writing = committing.get(rpcId);
    if (writing) await writing.catch(() => undefined);
    if (!options.claimAbort) return abortNow();
    const sessionId = entries.get(rpcId)?.frame.sessionId;
    try {
      const verdict = await options.claimAbort(rpcId);
      if (verdict.won || !entries.get(rpcId)) return abortNow();
      const receipt = await respond(verdict.response, true);
      if (receipt.accepted) return;
      options.log({ event: "question/abort-response-refused", rpcId, sessionId, reason: receipt.reason });
    } catch (error) {
      options.log({ event: "question/abort-unconfirmed", rpcId, sessionId, error: error instanceof Error ? error.message : String(error) });
    }
    abortNow();
  }

  /** Claims a judged question and settles its waiting call. */
  function settle(verdict: Extract<ReturnType<typeof judgeResponse>, { accepted: true }>): Receipt {
    const entry = entries.claim(verdict.rpcId, verdict.outcome);
    if (!entry) return { accepted: false, reason: "not-pending", detail: `question ${verdict.rpcId} is not pending (unknown, already answered, cancelled or aborted)` };
    if (verdict.outcome === "cancelled") entry.reject(new UserInteractionError("ASK_CANCELLED", CANCELLED_MESSAGE));
    else entry.resolve({ answers: verdict.answers });
    return { accepted: true };
  }

  async function respond(body: unknown, durable = false): Promise<Receipt> {
    const rpcId = (body as { rpcId?: unknown } | null)?.rpcId;
    const earlier = typeof rpcId === "string" ? committing.get(rpcId) : undefined;
    if (earlier) await earlier.catch(() => undefined);
    const judged = judge(body);
    if ("refusal" in judged) return judged.refusal;
    const { verdict } = judged;
    const entry = entries.get(verdict.rpcId)!;
    if (options.commit && entry.messageId !== undefined) {
      const answer: AcceptedAnswer = { rpcId: verdict.rpcId, sessionId: entry.frame.sessionId, messageId: entry.messageId, given: verdict.outcome === "cancelled" ? "cancelled" : { answers: verdict.answers } };
      const write = options.commit(answer);
      committing.set(verdict.rpcId, write);
      try {
        await write;
      } catch (error) {
        if (!durable) throw error;
        options.log({ event: "question/commit-failed", rpcId: verdict.rpcId, sessionId: answer.sessionId, error: error instanceof Error ? error.message : String(error) });
      } finally {
        committing.delete(verdict.rpcId);
      }
    }
    return settle(verdict);
  }

  return {
    onChange: entries.onChange,
    ask(request) {
      if (!request.sessionId) {
        return Promise.reject(new UserInteractionError("ASK_MISSING_SESSION", "ask_user_question needs the session it belongs to"));
      }
      if (disposed) return Promise.reject(new UserInteractionError("ASK_ABORTED", DISPOSED_MESSAGE));
      if (request.signal?.aborted) return Promise.reject(new UserInteractionError("ASK_ABORTED", ABORTED_MESSAGE));
      if (entries.size >= maxPending) {
        options.log({ event: "question/refused-full", sessionId: request.sessionId, max: maxPending });
        return Promise.reject(new UserInteractionError("TOO_MANY_PENDING", tooManyPendingMessage(maxPending)));
      }
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
        entries.add({ frame, resolve, reject, signal: request.signal, onAbort, rule: request.rule, messageId: request.messageId }, () => request.onRequested?.(rpcId));
      });
    },

    respond,
    ruleOf: (rpcId) => entries.get(rpcId)?.rule,
    messageOf: (rpcId) => entries.get(rpcId)?.messageId,

    replay: entries.frames,
    countFor: entries.countFor,

    async dispose() {
      disposed = true;
      await Promise.all(entries.rpcIds().map((rpcId) => abort(rpcId, DISPOSED_MESSAGE)));
    },
  };
}
