import type pg from "pg";
import type { AnswerItem, DownFrame, Message, ResolvedOutcome, Session, ToolCall } from "../../protocol/schemas";
import { answeredRow, stoppedTool } from "../sessions/history";
import type { GivenAnswer } from "../pending/pending-table";
import type { AnswerEffect } from "../tools/registry";
import type { Logger } from "../log";
import type { StoredMessage } from "../store";
import type { ClusterQuestion, ClusterView } from "./cluster-view";
import { SELECT_SESSION, toMessage, toSession, type MessageRow, type PgStore, type SessionRow } from "./store";

/**
 * Adoption (docs/protocol.md, cluster-adopt): a live host takes over the work of every host whose lease expired, so that
 * every live host sees what the database holds.
 */
export interface Adoption {
  store: PgStore;
  log: Logger;
  /** The adopting host. */
  instance: string;
  view: ClusterView;
  /** What the answer its question got does to a tool's row; null when nothing until the call returns. */
  settle(tool: ToolCall, given: GivenAnswer): AnswerEffect | null;
  /** Publishes a frame made on the dead host's behalf. */
  emit(frame: DownFrame): void;
}

export const MESSAGE_COLUMNS = "id, session_id, role, created_at, text, tool, step, raw_args, streaming, interrupted, failure";

/** What a stored response gave the question: its answers, a dismissal, or null when it is neither. */
function givenAnswer(body: unknown): GivenAnswer | null {
  const record = body !== null && typeof body === "object" ? (body as { type?: unknown; answers?: unknown }) : null;
  if (record?.type === "cancel") return "cancelled";
  if (record?.type === "answer" && Array.isArray(record.answers)) return { answers: record.answers as AnswerItem[] };
  return null;
}

/**
 * A dead host's running tool row with the answer its question got written in: the tool's result when the answer is all of
 * it, else the row as the answer left it (an allowed call), stopped since the call can no longer go on; null when the
 * answer does nothing to the row.
 */
function settleAnswered(adoption: Adoption, message: StoredMessage, response: string): StoredMessage | null {
  if (!message.tool) return null;
  let body: unknown = null;
  try {
    body = JSON.parse(response);
  } catch {
    return null;
  }
  const given = givenAnswer(body);
  const effect = given === null ? null : adoption.settle(message.tool, given);
  if (effect === null) return null;
  const answered = answeredRow(message, effect);
  return answered.tool!.status === "running" ? { ...answered, tool: stoppedTool(answered.tool!), interrupted: true } : answered;
}

/**
 * Adopts the work of every host whose lease expired, each in one transaction with the removal of its lease, oldest lease
 * first; one whose adoption fails is logged and tried again next time, and the others are adopted meanwhile.
 */
export async function adoptExpired(adoption: Adoption): Promise<void> {
  const dead = await adoption.store.query<{ instance: string }>("SELECT instance FROM hosts WHERE lease_until < now() ORDER BY lease_until, instance", [], false);
  let failure: unknown = null;
  for (const { instance: owner } of dead.rows) {
    try {
      await adoptHost(adoption, owner);
    } catch (error) {
      adoption.log({ event: "cluster/adopt-failed", owner, instance: adoption.instance, error: error instanceof Error ? error.message : String(error) });
      failure ??= error;
    }
  }
  if (failure !== null) throw failure;
}

export type Query = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<pg.QueryResult<R>>;

export type Resolutions = Map<string, { sessionId: string; outcome: ResolvedOutcome }>;

/**
 * How questions a dead host owned ended, as their rows say now: answered or cancelled as stored, any other state (or no
 * row) aborted, since its adoption closed every question still open.
 */
export async function outcomesOf(query: Query, questions: readonly ClusterQuestion[]): Promise<Resolutions> {
  const outcomes: Resolutions = new Map();
  if (questions.length === 0) return outcomes;
  const states = await query<{ rpc_id: string; session_id: string; state: string }>("SELECT rpc_id, session_id, state FROM pending WHERE rpc_id = ANY($1)", [questions.map((question) => question.frame.rpcId)]);
  const known = new Map(states.rows.map((row) => [row.rpc_id, row]));
  for (const { frame } of questions) {
    const row = known.get(frame.rpcId);
    const state = row?.state === "answered" || row?.state === "cancelled" ? row.state : "aborted";
    outcomes.set(frame.rpcId, { sessionId: row?.session_id ?? frame.sessionId, outcome: state });
  }
  return outcomes;
}

/**
 * Tells what a dead host's adoption settled: each question resolved (`host-lost`), each changed row as stored, and each of
 * its sessions idle, unless a live host's turn holds it by now.
 */
export async function tellSettled(store: PgStore, emit: (frame: DownFrame) => void, resolved: Resolutions, rows: readonly MessageRow[], sessions: Set<string>): Promise<void> {
  for (const [rpcId, { sessionId, outcome }] of resolved) {
    sessions.add(sessionId);
    emit({ type: "question/resolved", rpcId, sessionId, outcome, cause: "host-lost" });
  }
  for (const row of rows) {
    sessions.add(row.session_id);
    const { step: _step, rawArgs: _rawArgs, streaming: _streaming, ...wire } = toMessage(row);
    emit({ type: "message/upserted", message: wire satisfies Message });
  }
  if (sessions.size === 0) return;
  const found = await store.query<SessionRow>(`${SELECT_SESSION} WHERE id = ANY($1) AND NOT EXISTS (SELECT 1 FROM turns WHERE turns.session_id = sessions.id)`, [[...sessions]], false);
  for (const row of found.rows) {
    const { autoTitle: _auto, ...session } = toSession(row);
    emit({ type: "session/upserted", session: { ...session, state: "idle" } satisfies Session });
  }
}

/** What adopting a dead host changed in the database, to be told to every host once it is committed. */
interface Adopted {
  resolved: Resolutions;
  rows: MessageRow[];
  sessions: Set<string>;
  /** For the log: rows given their claimed answer, tool rows stopped, replies interrupted. */
  counts: { answered: number; tools: number; replies: number };
}

/**
 * A dead host's work, changed in the database: an answer it had claimed becomes its tool row's result (interrupted: the
 * agent never read it); its other questions resolve aborted, its running tool rows stop interrupted, its streaming rows
 * are interrupted; its turns rows go. Its pending questions are closed first, so no answer can be claimed for them while
 * the answers claimed before are read.
 */
async function adoptRows(adoption: Adoption, owner: string, query: Query): Promise<Adopted> {
  const resolved: Resolutions = new Map();
  const sessions = new Set<string>();
  const changed: MessageRow[] = [];
  const aborted = await query<{ rpc_id: string; session_id: string }>("UPDATE pending SET state = 'aborted' WHERE owner = $1 AND state = 'pending' RETURNING rpc_id, session_id", [owner]);
  const answered = await query<MessageRow & { rpc_id: string; response: string; state: "answered" | "cancelled" }>(
    `SELECT p.rpc_id, p.response, p.state, m.id, m.session_id, m.role, m.created_at, m.text, m.tool, m.step, m.raw_args, m.streaming, m.interrupted, m.failure
     FROM pending p JOIN messages m ON m.id = p.message_id
     WHERE p.owner = $1 AND p.state IN ('answered', 'cancelled') AND p.response IS NOT NULL AND m.tool_status = 'running'`,
    [owner],
  );
  for (const row of answered.rows) {
    // Its owner never settled it (its tool row still runs), so no host was told it was answered: every host is now,
    // including one that never knew the question (a host started since, whose view holds only questions still pending).
    resolved.set(row.rpc_id, { sessionId: row.session_id, outcome: row.state });
    const settled = settleAnswered(adoption, toMessage(row), row.response);
    if (!settled) continue;
    const updated = await query<MessageRow>(
      `UPDATE messages SET tool = $2, tool_status = $3, interrupted = TRUE WHERE id = $1 AND tool_status = 'running' RETURNING ${MESSAGE_COLUMNS}`,
      [settled.id, JSON.stringify(settled.tool), settled.tool!.status],
    );
    changed.push(...updated.rows);
  }
  const stopped: MessageRow[] = [];
  const running = await query<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE owner = $1 AND tool_status = 'running'`, [owner]);
  for (const row of running.rows) {
    const message = toMessage(row);
    if (!message.tool) continue;
    const tool = stoppedTool(message.tool);
    const updated = await query<MessageRow>(
      `UPDATE messages SET tool = $2, tool_status = 'stopped', interrupted = TRUE WHERE id = $1 AND tool_status = 'running' RETURNING ${MESSAGE_COLUMNS}`,
      [message.id, JSON.stringify(tool)],
    );
    stopped.push(...updated.rows);
  }
  const interrupted = await query<MessageRow>(`UPDATE messages SET streaming = FALSE, interrupted = TRUE WHERE owner = $1 AND streaming RETURNING ${MESSAGE_COLUMNS}`, [owner]);
  const turns = await query<{ session_id: string }>("DELETE FROM turns WHERE owner = $1 RETURNING session_id", [owner]);
  for (const row of aborted.rows) resolved.set(row.rpc_id, { sessionId: row.session_id, outcome: "aborted" });
  // Questions the dead host owned that every host still shows, whatever their row says now (an answer it never settled).
  const shown = adoption.view.askedBy(owner).filter(({ frame }) => !resolved.has(frame.rpcId));
  for (const [rpcId, resolution] of await outcomesOf(query, shown)) resolved.set(rpcId, resolution);
  for (const row of turns.rows) sessions.add(row.session_id);
  return { resolved, rows: [...changed, ...stopped, ...interrupted.rows], sessions, counts: { answered: changed.length, tools: stopped.length, replies: interrupted.rows.length } };
}

/**
 * Takes over one dead host (docs/protocol.md, cluster-adopt): its lease is removed and its work changed in one transaction,
 * so a failure leaves it to be adopted again, and a host that adopted it meanwhile leaves nothing to do. Once committed,
 * every question it owned is resolved on every socket, whatever its state, and each of its sessions is published idle.
 */
async function adoptHost(adoption: Adoption, owner: string) {
  const { store, log, instance, view, emit } = adoption;
  const adopted = await store.transaction(async (client) => {
    const query: Query = (text, values) => client.query(text, values);
    // Another host adopted it first, or it renewed its lease since it was listed: nothing of it is this host's to change.
    const lease = await query("DELETE FROM hosts WHERE instance = $1 AND lease_until < now() RETURNING instance", [owner]);
    if (lease.rowCount === 0) return null;
    log({ event: "cluster/adopting", owner, instance });
    return adoptRows(adoption, owner, query);
  }, false);
  if (adopted === null) return;
  const { resolved, rows, sessions, counts } = adopted;
  for (const sessionId of view.takeBusy(owner)) sessions.add(sessionId);
  await tellSettled(store, emit, resolved, rows, sessions);
  log({ event: "cluster/adopted", owner, instance, ...counts, questions: resolved.size, sessions: sessions.size });
}
