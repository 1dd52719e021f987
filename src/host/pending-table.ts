import { randomUUID } from "node:crypto";
import { checkAnswers } from "../protocol/answers";
import { AnswerItem, RespondBody, type DownFrame, type QuestionRequestedFrame, type Receipt, type ResolvedOutcome } from "../protocol/schemas";
import type { Logger } from "./log";
import {
  ABORTED_MESSAGE,
  CANCELLED_MESSAGE,
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
}

export interface PendingTableOptions {
  broadcast(frame: DownFrame): void;
  log: Logger;
}

/** The Web user-interaction provider: host memory is the authority on what is pending. */
export interface PendingTable extends UserInteractionProvider {
  /** Checks a response in PROTOCOL order and claims the question when it is valid. */
  respond(body: unknown): Receipt;
  /** Every pending `question/requested` frame, oldest first, as first sent. */
  replay(): QuestionRequestedFrame[];
  countFor(sessionId: string): number;
  /** Calls `listener` after a session's set of pending questions changed; returns the unsubscribe. */
  onChange(listener: (sessionId: string) => void): () => void;
  /** Settles every pending question with ASK_ABORTED "web user-interaction provider was disposed". */
  dispose(): void;
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
      };
      return new Promise<AskResult>((resolve, reject) => {
        const onAbort = () => {
          if (claim(rpcId, "aborted")) reject(new UserInteractionError("ASK_ABORTED", ABORTED_MESSAGE));
        };
        entries.set(rpcId, { frame, resolve, reject, signal: request.signal, onAbort });
        count(sessionId, 1);
        request.signal?.addEventListener("abort", onAbort, { once: true });
        request.onRequested?.(rpcId);
        options.log({ event: "question/requested", rpcId, sessionId, questions: request.questions.length });
        changed(sessionId);
        options.broadcast(frame);
      });
    },

    respond(body) {
      const shape = RespondBody.safeParse(body);
      if (!shape.success) {
        return { accepted: false, reason: "bad-response", detail: 'body must be {"type":"answer","rpcId","sessionId","answers":[...]} or {"type":"cancel","rpcId","sessionId"}' };
      }
      const response = shape.data;
      const entry = entries.get(response.rpcId);
      if (!entry) return { accepted: false, reason: "not-pending", detail: `question ${response.rpcId} is not pending (unknown, already answered, cancelled or aborted)` };
      if (response.sessionId !== entry.frame.sessionId) {
        return { accepted: false, reason: "bad-response", detail: `question ${response.rpcId} does not belong to session ${response.sessionId}` };
      }
      if (response.type === "cancel") {
        claim(response.rpcId, "cancelled");
        entry.reject(new UserInteractionError("ASK_CANCELLED", CANCELLED_MESSAGE));
        return { accepted: true };
      }
      const problem = checkAnswers(entry.frame.questions, response.answers);
      if (problem) return { accepted: false, reason: "bad-response", detail: problem };
      const answers = response.answers.map((item) => AnswerItem.parse(item));
      claim(response.rpcId, "answered");
      entry.resolve({ answers });
      return { accepted: true };
    },

    replay() {
      return [...entries.values()].map((entry) => entry.frame);
    },

    countFor(sessionId) {
      return perSession.get(sessionId) ?? 0;
    },

    dispose() {
      disposed = true;
      for (const rpcId of [...entries.keys()]) {
        const entry = claim(rpcId, "aborted");
        entry?.reject(new UserInteractionError("ASK_ABORTED", DISPOSED_MESSAGE));
      }
    },
  };
}
