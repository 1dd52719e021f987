import { ApiError } from "../client/api";
import type { ResponseVerdict } from "../protocol/response-verdict";
import { ASK_ABORTED_ERROR, ASK_CANCELLED_ERROR } from "../protocol/tool-messages";
import type { DownFrame, Message, PendingRequest, Session } from "../protocol/schemas";

const TOOL_NAME = "ask_user_question";

/** A claim of a pending request: an accepted response, or the turn's end aborting it. */
export type FakeClaim = Extract<ResponseVerdict, { accepted: true }> | { rpcId: string; sessionId: string; outcome: "aborted"; cause?: "host-lost" };

/**
 * What the fake host holds in memory: sessions, transcripts, the pending table and the tool row of each
 * waiting question. Every change is broadcast as the frame the host would send for it.
 */
export interface FakeLedger {
  sessions: Map<string, Session>;
  transcripts: Map<string, Message[]>;
  pending: Map<string, PendingRequest>;
  /** The session with this id; a 404 `ApiError` when there is none. */
  sessionOf(sessionId: string): Session;
  upsertSession(sessionId: string, state: Session["state"]): void;
  upsertMessage(message: Message): void;
  /** A turn calls ask_user_question: the session runs, the tool row shows, the session waits, the request is pending. */
  ask(request: PendingRequest): void;
  /** docs/protocol.md respond-claim: delete, broadcast `question/resolved`, then settle the waiting call (its tool row). */
  claim(claim: FakeClaim): void;
  /** Aborts every request pending in the session, or in every session when none is named. */
  abortPending(sessionId?: string): PendingRequest[];
}

export function createFakeLedger(initial: readonly Session[], rows: readonly Message[], now: () => string, broadcast: (frame: DownFrame) => void): FakeLedger {
  const sessions = new Map(initial.map((session) => [session.id, session]));
  const transcripts = new Map<string, Message[]>();
  for (const row of rows) transcripts.set(row.sessionId, [...(transcripts.get(row.sessionId) ?? []), row]);
  const pending = new Map<string, PendingRequest>();
  const toolRows = new Map<string, Message>();

  function upsertSession(sessionId: string, state: Session["state"]) {
    const session = sessions.get(sessionId);
    if (!session) return;
    const next = { ...session, state, updatedAt: now() };
    sessions.set(sessionId, next);
    broadcast({ type: "session/upserted", session: next });
  }

  function upsertMessage(message: Message) {
    const list = transcripts.get(message.sessionId) ?? [];
    const index = list.findIndex((row) => row.id === message.id);
    transcripts.set(message.sessionId, index < 0 ? [...list, message] : list.map((row) => (row.id === message.id ? message : row)));
    broadcast({ type: "message/upserted", message });
  }

  function claim(verdict: FakeClaim) {
    pending.delete(verdict.rpcId);
    broadcast({ type: "question/resolved", rpcId: verdict.rpcId, sessionId: verdict.sessionId, outcome: verdict.outcome, ...("cause" in verdict ? { cause: verdict.cause } : {}) });
    upsertSession(verdict.sessionId, "running");
    const row = toolRows.get(verdict.rpcId);
    toolRows.delete(verdict.rpcId);
    if (row?.tool) {
      const tool =
        verdict.outcome === "answered"
          ? { ...row.tool, status: "ok" as const, result: JSON.stringify({ answers: verdict.answers }), outcome: { kind: "answered" as const, answers: verdict.answers } }
          : { ...row.tool, status: "error" as const, error: verdict.outcome === "cancelled" ? ASK_CANCELLED_ERROR : ASK_ABORTED_ERROR };
      upsertMessage({ ...row, tool });
    }
    upsertSession(verdict.sessionId, "idle");
  }

  return {
    sessions,
    transcripts,
    pending,
    sessionOf(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new ApiError(404, "NOT_FOUND", `no session ${sessionId}`);
      return session;
    },
    upsertSession,
    upsertMessage,
    ask(request) {
      upsertSession(request.sessionId, "running");
      const row: Message = {
        id: `demo-tool-${request.rpcId}`,
        sessionId: request.sessionId,
        role: "tool",
        createdAt: request.createdAt,
        tool: { callId: `call-${request.rpcId}`, name: TOOL_NAME, args: { questions: request.questions }, status: "running" },
      };
      toolRows.set(request.rpcId, row);
      upsertMessage(row);
      pending.set(request.rpcId, request);
      upsertSession(request.sessionId, "waiting");
      broadcast({ type: "question/requested", ...request });
    },
    claim,
    abortPending(sessionId) {
      const held = [...pending.values()].filter((request) => sessionId === undefined || request.sessionId === sessionId);
      for (const request of held) claim({ rpcId: request.rpcId, sessionId: request.sessionId, outcome: "aborted" });
      return held;
    },
  };
}
