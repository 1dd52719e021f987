import type { DownFrame, QuestionRequestedFrame } from "../../protocol/schemas";
import type { Logger } from "../log";
import { SELECT_SESSION, toSession, type PgStore, type SessionRow } from "./store";

export interface Reconciliation {
  store: PgStore;
  instance: string;
  log: Logger;
  /** This host's own pending questions, as its pending table holds them now (read as it goes: questions come meanwhile). */
  own(): QuestionRequestedFrame[];
  /** The sessions whose turns start or run on this host, read once what was published is written. */
  ownTurns(): string[];
  publish(frame: DownFrame): void;
  /** Waits until every frame published so far reached the database. */
  published(): Promise<void>;
  /** Settles one of this host's questions with the response that claimed it elsewhere. */
  answer(body: unknown): void;
}

/**
 * After an outage, makes the database agree with this host's own questions: a question asked while it
 * was unreachable is written and announced, one settled here meanwhile is marked aborted and announced,
 * and one claimed elsewhere whose notice was missed is settled here with the stored response.
 */
export async function reconcile(options: Reconciliation): Promise<void> {
  const { store, instance, publish } = options;
  await options.published();
  const own = new Map(options.own().map((frame) => [frame.rpcId, frame]));
  const rows = await store.query<{ rpc_id: string; session_id: string; state: string; response: string | null }>("SELECT rpc_id, session_id, state, response FROM pending WHERE owner = $1 AND (state = 'pending' OR rpc_id = ANY($2))", [instance, [...own.keys()]], false);
  const known = new Set(rows.rows.map((row) => row.rpc_id));
  // Read again: a question asked while the rows were read has its row written, pending, and is not over.
  const live = new Set(options.own().map((frame) => frame.rpcId));
  for (const row of rows.rows) {
    if (row.state === "pending" && !own.has(row.rpc_id) && !live.has(row.rpc_id)) publish({ type: "question/resolved", rpcId: row.rpc_id, sessionId: row.session_id, outcome: "aborted" });
    else if (row.state !== "pending" && own.has(row.rpc_id) && row.response !== null) options.answer(JSON.parse(row.response));
  }
  for (const [rpcId, frame] of own) if (!known.has(rpcId)) publish(frame);
  await options.published();
  // A turn that ended while the database was away could not give its row back, nor tell the other hosts its session is
  // idle: both are done now (a session with a question of this host's waiting stays as its frames said).
  const freed = await store.query<{ session_id: string }>("DELETE FROM turns WHERE owner = $1 AND NOT (session_id = ANY($2)) RETURNING session_id", [instance, options.ownTurns()], false);
  const asking = new Set([...own.values()].map((frame) => frame.sessionId));
  const idle = freed.rows.map((row) => row.session_id).filter((sessionId) => !asking.has(sessionId));
  if (idle.length > 0) {
    const sessions = await store.query<SessionRow>(`${SELECT_SESSION} WHERE id = ANY($1)`, [idle], false);
    for (const row of sessions.rows) {
      const { autoTitle: _auto, ...session } = toSession(row);
      publish({ type: "session/upserted", session: { ...session, state: "idle" } });
    }
    await options.published();
  }
  options.log({ event: "cluster/reconciled", questions: own.size, rows: rows.rowCount, idle: idle.length });
}
