import { hostname } from "node:os";
import pg from "pg";
import { DownFrame, type AnswerItem, type Message, type QuestionRequestedFrame, type ResolvedOutcome, type Session, type ToolCall } from "../../protocol/schemas";
import { answeredRow, STOPPED_TOOL_TEXT } from "../sessions/history";
import type { GivenAnswer } from "../pending/pending-table";
import type { ToolOutcome } from "../tools/registry";
import type { Logger } from "../log";
import type { AbortClaim } from "../pending/pending-table";
import { readRule, type AnswerRule } from "../pending/answer-rule";
import { ABORTED_MESSAGE } from "../pending/user-interaction";
import type { StoredMessage } from "../store";
import { toMessage, toSession, type MessageRow, type PgStore, type SessionRow } from "./store";

/**
 * Hosts sharing one Postgres database are a cluster (docs/architecture.md, Several hosts):
 * leases say who is alive, LISTEN/NOTIFY carries every frame to every host in its owner's order,
 * and a live host adopts the work of one whose lease expired.
 */
export interface Cluster {
  /** The cluster's id: `hello.hostId` and health's `hostId`. */
  readonly id: string;
  /** This host process. */
  readonly instance: string;
  /** Live hosts by their leases, as of the last renewal. */
  instances(): number;
  /** `ok`; `disconnected` while the database cannot be reached; `lost` once this host's lease is gone for good. */
  state(): ClusterState;
  /** Why answers are refused now, or null when they are accepted. */
  refusal(): string | null;
  /** Sends a frame this host produced to every host, after the one before it. */
  publish(frame: DownFrame): void;
  /**
   * Every frame of the cluster, in each owner's order: another host's as it arrives, this host's once
   * it was written and notified, so a question on any socket can already be claimed on every host.
   */
  onFrame(listener: (frame: DownFrame, owner: string) => void): void;
  /** An answer claimed on another host for a question this host owns. */
  onAnswer(listener: (body: unknown) => void): void;
  /**
   * Where the cluster reads this host's own pending questions, to reconcile them with the database after an outage,
   * and the rule each was asked with, written beside it so that every host judges an answer by it.
   */
  setOwnPending(source: OwnPending): void;
  /**
   * How a tool's result follows from the answer a dead host's question got: adoption writes it into the tool row that still
   * runs (docs/protocol.md, cluster-adopt). Without it, or when it gives null, the row is stopped like an unanswered one.
   */
  setSettler(settle: (tool: ToolCall, given: GivenAnswer) => ToolOutcome | null): void;
  /** Takes the session's turn for this host: false while a live host other than this one holds it. */
  claimTurn(sessionId: string): Promise<boolean>;
  /** Gives the session's turn back (its turn ended here). */
  releaseTurn(sessionId: string): Promise<void>;
  /** Where the cluster reads which sessions' turns this host holds, so that only a turn's end gives its row back. */
  setOwnTurns(read: () => string[]): void;
  /** The sessions whose turns run on other live hosts now. */
  turnsElsewhere(): Promise<string[]>;
  /** Records where the other hosts reach this one (its URL once it listens) and the machine it runs on. */
  advertise(url: URL): Promise<void>;
  /**
   * Where another live host is reached; null when `instance` is this host, holds no live lease, or advertised a
   * loopback address from another machine (logged: it needs PARLEY_PEER_URL).
   */
  peerUrl(instance: string): Promise<URL | null>;
  /** Stop pressed on another host for a session: abort its turn here, if it runs here. */
  onStop(listener: (sessionId: string) => void): void;
  /** Asks every other host to abort the session's turn and outside calls. */
  sendStop(sessionId: string): Promise<void>;
  /** This host became unhealthy (disconnected or lost): its sockets should move to a healthy host. */
  onUnhealthy(listener: (state: ClusterState) => void): void;
  /** Every pending question of the cluster, oldest first, with its owner. */
  pending(): ClusterQuestion[];
  /** The pending question with this rpcId, as this host knows it. */
  question(rpcId: string): ClusterQuestion | undefined;
  /** A question still pending in the database that this host may not have heard of yet. */
  fetchPending(rpcId: string): Promise<ClusterQuestion | undefined>;
  /** Claims a pending question cluster-wide: one conditional UPDATE; the owner when this call won, null when it was not pending. */
  claim(rpcId: string, outcome: "answered" | "cancelled", body: unknown): Promise<string | null>;
  /**
   * Claims one of this host's questions for an abort with the same conditional UPDATE as a response:
   * won when it was still pending (or was already aborted), else the response that claimed it first.
   */
  claimAbort(rpcId: string): Promise<AbortClaim>;
  /** Tells the owner of a question that a response claimed it here. */
  sendAnswer(owner: string, body: unknown): Promise<void>;
  /** Waits until every frame published so far reached the database. */
  flush(): Promise<void>;
  /** Stops renewing, removes this host's lease, stops listening. */
  close(): Promise<void>;
}

export type ClusterState = "ok" | "disconnected" | "lost";

/** A pending question of the cluster: its frame, the host that asked it, and the rule its answer must also pass. */
export interface ClusterQuestion {
  frame: QuestionRequestedFrame;
  owner: string;
  rule?: AnswerRule;
}

/** This host's own pending questions, as its pending table holds them. */
export interface OwnPending {
  replay(): QuestionRequestedFrame[];
  ruleOf(rpcId: string): AnswerRule | undefined;
  messageOf(rpcId: string): string | undefined;
}

export interface ClusterOptions {
  store: PgStore;
  log: Logger;
  /** Lease expiry (PARLEY_LEASE_S); renewed every sixth of it. Default 30 s. */
  leaseMs?: number;
  /** Where this host serves, recorded with its lease. */
  address: string;
}

export const DEFAULT_LEASE_MS = 30_000;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** Why a host whose lease was adopted stops: what it held is settled elsewhere, and it rejoins as a new host when started again. */
export const CLUSTER_LOST_MESSAGE = "this host's lease in the cluster expired and another host adopted its work: it stops; start it again to rejoin the cluster";
const CHANNEL = "parley";
/** Postgres refuses a NOTIFY payload of 8000 bytes or more; larger frames travel as a row whose id is notified. */
export const NOTIFY_LIMIT_BYTES = 7900;
const LARGE_FRAME_TTL = "5 minutes";
/** Notifications sent by one statement when frames queue up. */
const NOTIFY_BATCH = 64;

type Envelope = { s: string; f: DownFrame; rule?: AnswerRule } | { s: string; r: number } | { s: string; to: string; answer: unknown } | { s: string; stop: string };

interface PendingRow {
  owner: string;
  frame: string;
  rule: string | null;
}

const MESSAGE_COLUMNS = "id, session_id, role, created_at, text, tool, step, raw_args, streaming, interrupted, failure";

/** What a stored response gave the question: its answers, a dismissal, or null when it is neither. */
function givenAnswer(body: unknown): GivenAnswer | null {
  const record = body !== null && typeof body === "object" ? (body as { type?: unknown; answers?: unknown }) : null;
  if (record?.type === "cancel") return "cancelled";
  if (record?.type === "answer" && Array.isArray(record.answers)) return { answers: record.answers as AnswerItem[] };
  return null;
}

/** A pending row as the question it holds (undefined when its frame is not a question). */
function questionOf(row: PendingRow): ClusterQuestion | undefined {
  const frame = DownFrame.parse(JSON.parse(row.frame));
  if (frame.type !== "question/requested") return undefined;
  let stored: unknown = null;
  try {
    stored = row.rule === null ? null : JSON.parse(row.rule);
  } catch {
    stored = { kind: "not JSON" };
  }
  const rule = readRule(stored);
  return { frame, owner: row.owner, ...(rule ? { rule } : {}) };
}

/** Runs async jobs one after another; a failed job is reported and the next one still runs. */
function serial(onError: (error: unknown) => void) {
  let tail: Promise<void> = Promise.resolve();
  return {
    push(job: () => Promise<void>) {
      tail = tail.then(job).catch(onError);
    },
    idle: () => tail,
  };
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { store, log } = options;
  const instance = store.instance;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const renewMs = Math.max(100, Math.floor(leaseMs / 6));
  const leaseSeconds = leaseMs / 1000;
  let state: ClusterState = "ok";
  let live = 1;
  let lastRenewed = performance.now();
  let closed = false;
  const mirror = new Map<string, ClusterQuestion>();
  /** Sessions each host last published as running or waiting: adoption publishes them idle. */
  const lastStates = new Map<string, Set<string>>();
  const frameListeners = new Set<(frame: DownFrame, owner: string) => void>();
  const answerListeners = new Set<(body: unknown) => void>();
  const stopListeners = new Set<(sessionId: string) => void>();
  let ownPending: OwnPending = { replay: () => [], ruleOf: () => undefined, messageOf: () => undefined };
  let settler: (tool: ToolCall, given: GivenAnswer) => ToolOutcome | null = () => null;
  let ownTurns: () => string[] = () => [];
  const unhealthyListeners = new Set<(state: ClusterState) => void>();

  const outgoing = serial((error) => {
    log({ event: "cluster/publish-failed", error: error instanceof Error ? error.message : String(error) });
    setState("disconnected");
  });
  const incoming = serial((error) => log({ event: "cluster/receive-failed", error: error instanceof Error ? error.message : String(error) }));

  function setState(next: ClusterState) {
    if (state === next || state === "lost") return;
    state = next;
    log({ event: "cluster/state", state, instance });
    if (next === "lost") store.refuseWrites(`this host's lease in the cluster expired and its work was adopted by another host: it writes nothing more; restart it`);
    if (next !== "ok") for (const listener of unhealthyListeners) listener(next);
  }

  /** Keeps the mirror of the cluster's pending questions in step with the frames, whoever produced them. */
  function track(frame: DownFrame, owner: string, rule: AnswerRule | undefined) {
    if (frame.type === "question/requested") mirror.set(frame.rpcId, { frame, owner, ...(rule ? { rule } : {}) });
    else if (frame.type === "question/resolved") mirror.delete(frame.rpcId);
    else if (frame.type === "session/upserted" || frame.type === "session/deleted") {
      const sessionId = frame.type === "session/upserted" ? frame.session.id : frame.sessionId;
      for (const sessions of lastStates.values()) sessions.delete(sessionId);
      if (frame.type === "session/upserted" && frame.session.state !== "idle") lastStates.set(owner, (lastStates.get(owner) ?? new Set()).add(sessionId));
    }
  }

  async function register() {
    await store.query("INSERT INTO hosts (instance, url, lease_until) VALUES ($1, $2, now() + make_interval(secs => $3))", [instance, options.address, leaseSeconds]);
  }

  async function renew() {
    if (closed || state === "lost") return;
    const overdue = performance.now() - lastRenewed > leaseMs;
    if (overdue) setState("disconnected");
    try {
      const renewed = await store.query("UPDATE hosts SET lease_until = now() + make_interval(secs => $2) WHERE instance = $1", [instance, leaseSeconds], false);
      if ((renewed.rowCount ?? 0) === 0) {
        setState("lost");
        return;
      }
      lastRenewed = performance.now();
      if (state === "disconnected" && listener !== null) {
        await outgoing.idle();
        await reconcile();
        await reload();
        state = "ok";
        log({ event: "cluster/state", state, instance });
      }
      await adopt();
      const count = await store.query<{ live: number }>("SELECT count(*)::int AS live FROM hosts WHERE lease_until > now()", [], false);
      live = count.rows[0]?.live ?? 1;
    } catch (error) {
      log({ event: "cluster/renew-failed", error: error instanceof Error ? error.message : String(error) });
      setState("disconnected");
    }
  }

  /**
   * Takes over every host whose lease expired, so every live host sees what the database holds (docs/protocol.md,
   * cluster-adopt): an answer it had claimed becomes its tool row's result (interrupted: the agent never read it); its other
   * questions resolve aborted, its running tool rows stop interrupted, its streaming rows are interrupted; every question it
   * owned is resolved on every socket, whatever its state; its turns rows go, and each of its sessions is published idle.
   */
  async function adopt() {
    const dead = await store.query<{ instance: string }>("DELETE FROM hosts WHERE lease_until < now() RETURNING instance", [], false);
    for (const { instance: owner } of dead.rows) {
      log({ event: "cluster/adopting", owner, instance });
      const sessions = new Set<string>();
      const resolved = new Map<string, { sessionId: string; outcome: ResolvedOutcome }>();
      const changed: MessageRow[] = [];
      const answered = await store.query<MessageRow & { rpc_id: string; response: string }>(
        `SELECT p.rpc_id, p.response, m.id, m.session_id, m.role, m.created_at, m.text, m.tool, m.step, m.raw_args, m.streaming, m.interrupted, m.failure
         FROM pending p JOIN messages m ON m.id = p.message_id
         WHERE p.owner = $1 AND p.state IN ('answered', 'cancelled') AND p.response IS NOT NULL AND m.tool_status = 'running'`,
        [owner],
        false,
      );
      for (const row of answered.rows) {
        const settled = settleAnswered(toMessage(row), row.response);
        if (!settled) continue;
        const updated = await store.query<MessageRow>(
          `UPDATE messages SET tool = $2, tool_status = $3, interrupted = TRUE WHERE id = $1 AND tool_status = 'running' RETURNING ${MESSAGE_COLUMNS}`,
          [settled.id, JSON.stringify(settled.tool), settled.tool!.status],
          false,
        );
        changed.push(...updated.rows);
      }
      const aborted = await store.query<{ rpc_id: string; session_id: string }>("UPDATE pending SET state = 'aborted' WHERE owner = $1 AND state = 'pending' RETURNING rpc_id, session_id", [owner], false);
      const error = JSON.stringify({ name: "UserInteractionError", code: "ASK_ABORTED", message: ABORTED_MESSAGE });
      const stopped = await store.query<MessageRow>(
        `UPDATE messages SET tool_status = 'stopped', interrupted = TRUE, tool = (tool::jsonb || jsonb_build_object('status', 'stopped', 'result', $2::text, 'error', $3::jsonb))::text
         WHERE owner = $1 AND tool_status = 'running' RETURNING ${MESSAGE_COLUMNS}`,
        [owner, STOPPED_TOOL_TEXT, error],
        false,
      );
      const interrupted = await store.query<MessageRow>(`UPDATE messages SET streaming = FALSE, interrupted = TRUE WHERE owner = $1 AND streaming RETURNING ${MESSAGE_COLUMNS}`, [owner], false);
      const turns = await store.query<{ session_id: string }>("DELETE FROM turns WHERE owner = $1 RETURNING session_id", [owner], false);
      for (const row of aborted.rows) resolved.set(row.rpc_id, { sessionId: row.session_id, outcome: "aborted" });
      // Questions the dead host owned that every host still shows, whatever their row says now (an answer it never settled).
      const shown = [...mirror.values()].filter((question) => question.owner === owner).map((question) => question.frame.rpcId);
      if (shown.length > 0) {
        const states = await store.query<{ rpc_id: string; session_id: string; state: string }>("SELECT rpc_id, session_id, state FROM pending WHERE rpc_id = ANY($1)", [shown], false);
        const known = new Map(states.rows.map((row) => [row.rpc_id, row]));
        for (const rpcId of shown) {
          if (resolved.has(rpcId)) continue;
          const row = known.get(rpcId);
          const state = row?.state === "answered" || row?.state === "cancelled" ? row.state : "aborted";
          resolved.set(rpcId, { sessionId: row?.session_id ?? mirror.get(rpcId)!.frame.sessionId, outcome: state });
        }
      }
      for (const [rpcId, { sessionId, outcome }] of resolved) {
        sessions.add(sessionId);
        emit({ type: "question/resolved", rpcId, sessionId, outcome });
      }
      for (const row of [...changed, ...stopped.rows, ...interrupted.rows]) {
        sessions.add(row.session_id);
        const { step: _step, rawArgs: _rawArgs, streaming: _streaming, ...wire } = toMessage(row);
        emit({ type: "message/upserted", message: wire satisfies Message });
      }
      for (const row of turns.rows) sessions.add(row.session_id);
      for (const sessionId of lastStates.get(owner) ?? []) sessions.add(sessionId);
      lastStates.delete(owner);
      if (sessions.size > 0) {
        const rows = await store.query<SessionRow>("SELECT id, title, auto_title, created_at, updated_at, agent FROM sessions WHERE id = ANY($1)", [[...sessions]], false);
        for (const row of rows.rows) {
          const { autoTitle: _auto, ...session } = toSession(row);
          emit({ type: "session/upserted", session: { ...session, state: "idle" } satisfies Session });
        }
      }
      log({ event: "cluster/adopted", owner, answered: changed.length, questions: resolved.size, tools: stopped.rows.length, replies: interrupted.rows.length, sessions: sessions.size });
    }
  }

  /** A dead host's running tool row with the answer its question got, as the tool's result; null when the tool cannot say. */
  function settleAnswered(message: StoredMessage, response: string): StoredMessage | null {
    if (!message.tool) return null;
    let body: unknown = null;
    try {
      body = JSON.parse(response);
    } catch {
      return null;
    }
    const given = givenAnswer(body);
    const outcome = given === null ? null : settler(message.tool, given);
    return outcome === null ? null : answeredRow(message, outcome);
  }

  /** A frame made by this host on another's behalf (adoption). */
  const emit = (frame: DownFrame) => publish(frame);

  function deliver(frame: DownFrame, owner: string, rule: AnswerRule | undefined) {
    track(frame, owner, rule);
    for (const listener of frameListeners) listener(frame, owner);
  }

  /** Frames waiting for the next send; one job is queued for them whenever the batch is not empty. */
  let batch: DownFrame[] = [];
  function publish(frame: DownFrame) {
    batch.push(frame);
    if (batch.length > 1) return;
    outgoing.push(async () => {
      const frames = batch;
      batch = [];
      try {
        await send(frames);
      } finally {
        // Delivered here even when the send failed: this host's sockets are closed next, and reconcile() repairs the table.
        for (const sent of frames) deliver(sent, instance, sent.type === "question/requested" ? ownPending.ruleOf(sent.rpcId) : undefined);
      }
    });
  }

  /** Writes the frames' pending rows in order, then notifies them in order, many to a statement. */
  async function send(frames: DownFrame[]) {
    if (state === "lost") return;
    const notes: string[] = [];
    for (const frame of frames) {
      const rule = frame.type === "question/requested" ? ownPending.ruleOf(frame.rpcId) : undefined;
      if (frame.type === "question/requested") {
        await store.query(
          "INSERT INTO pending (rpc_id, session_id, owner, frame, rule, message_id) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (rpc_id) DO NOTHING",
          [frame.rpcId, frame.sessionId, instance, JSON.stringify(frame), rule ? JSON.stringify(rule) : null, ownPending.messageOf(frame.rpcId) ?? null],
          false,
        );
      } else if (frame.type === "question/resolved") {
        await store.query("UPDATE pending SET state = $2 WHERE rpc_id = $1 AND state = 'pending'", [frame.rpcId, frame.outcome], false);
      } else if (frame.type === "session/upserted" && frame.session.state === "idle" && !ownTurns().includes(frame.session.id)) {
        // No turn of the session is starting or running here: its row goes before any host sees the session idle,
        // so a message posted anywhere next is taken. (An idle frame of a rename, say, while a turn is starting keeps it.)
        await store.query("DELETE FROM turns WHERE session_id = $1 AND owner = $2", [frame.session.id, instance], false);
      }
      notes.push(await notePayload(JSON.stringify({ s: instance, f: frame, ...(rule ? { rule } : {}) } satisfies Envelope)));
    }
    for (let start = 0; start < notes.length; start += NOTIFY_BATCH) {
      const chunk = notes.slice(start, start + NOTIFY_BATCH);
      await store.query(`SELECT ${chunk.map((_, index) => `pg_notify($1, $${index + 2})`).join(", ")}`, [CHANNEL, ...chunk], false);
    }
  }

  /** The payload to notify for `data`: itself, or the id of the row it was written to when it is too large. */
  async function notePayload(data: string): Promise<string> {
    if (Buffer.byteLength(data) <= NOTIFY_LIMIT_BYTES) return data;
    const row = await store.query<{ id: string }>("INSERT INTO large_frames (payload) VALUES ($1) RETURNING id", [data], false);
    return JSON.stringify({ s: instance, r: Number(row.rows[0]!.id) } satisfies Envelope);
  }

  async function notify(data: string) {
    await store.query("SELECT pg_notify($1, $2)", [CHANNEL, await notePayload(data)], false);
  }

  async function receive(payload: string) {
    let envelope = JSON.parse(payload) as Envelope;
    if (envelope.s === instance) return;
    if ("r" in envelope) {
      const row = await store.query<{ payload: string }>("SELECT payload FROM large_frames WHERE id = $1", [envelope.r], false);
      if (!row.rows[0]) throw new Error(`large frame ${envelope.r} from ${envelope.s} is gone`);
      envelope = JSON.parse(row.rows[0].payload) as Envelope;
    }
    if ("to" in envelope) {
      if (envelope.to === instance) for (const listener of answerListeners) listener(envelope.answer);
      return;
    }
    if ("stop" in envelope) {
      for (const listener of stopListeners) listener(envelope.stop);
      return;
    }
    if (!("f" in envelope)) return;
    const frame = DownFrame.parse(envelope.f);
    deliver(frame, envelope.s, readRule(envelope.rule));
  }

  /**
   * After an outage, makes the database agree with this host's own questions: a question asked while it
   * was unreachable is written and announced, one settled here meanwhile is marked aborted and announced,
   * and one claimed elsewhere whose notice was missed is settled here with the stored response.
   */
  async function reconcile() {
    const own = new Map(ownPending.replay().map((frame) => [frame.rpcId, frame]));
    const rows = await store.query<{ rpc_id: string; session_id: string; state: string; response: string | null }>("SELECT rpc_id, session_id, state, response FROM pending WHERE owner = $1 AND (state = 'pending' OR rpc_id = ANY($2))", [instance, [...own.keys()]], false);
    const known = new Set(rows.rows.map((row) => row.rpc_id));
    for (const row of rows.rows) {
      if (row.state === "pending" && !own.has(row.rpc_id)) publish({ type: "question/resolved", rpcId: row.rpc_id, sessionId: row.session_id, outcome: "aborted" });
      else if (row.state !== "pending" && own.has(row.rpc_id) && row.response !== null) {
        const body: unknown = JSON.parse(row.response);
        for (const listener of answerListeners) listener(body);
      }
    }
    for (const [rpcId, frame] of own) if (!known.has(rpcId)) publish(frame);
    await outgoing.idle();
    // A turn that ended while the database was away could not give its row back.
    await store.query("DELETE FROM turns WHERE owner = $1 AND NOT (session_id = ANY($2))", [instance, ownTurns()], false);
    log({ event: "cluster/reconciled", questions: own.size, rows: rows.rowCount });
  }

  /** Reloads the pending questions from the database (at start, and after the listener missed notifications). */
  async function reload() {
    const rows = await store.query<PendingRow>("SELECT owner, frame, rule FROM pending WHERE state = 'pending' ORDER BY seq", [], false);
    mirror.clear();
    for (const row of rows.rows) {
      const question = questionOf(row);
      if (question) mirror.set(question.frame.rpcId, question);
    }
  }

  let listener: pg.Client | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  async function listen() {
    const client = new pg.Client({ connectionString: store.url });
    client.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload !== undefined) {
        const payload = message.payload;
        incoming.push(() => receive(payload));
      }
    });
    client.on("error", (error) => {
      log({ event: "cluster/listener-failed", error: error.message });
      if (listener === client) listener = null;
      setState("disconnected");
      scheduleListen();
    });
    client.on("end", () => {
      if (listener !== client || closed) return;
      listener = null;
      log({ event: "cluster/listener-ended" });
      setState("disconnected");
      scheduleListen();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
  }
  function scheduleListen() {
    if (closed || reconnectTimer !== null) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      listen().then(
        () => renew(),
        (error: unknown) => {
          log({ event: "cluster/listen-failed", error: error instanceof Error ? error.message : String(error) });
          scheduleListen();
        },
      );
    }, renewMs);
    reconnectTimer.unref();
  }

  await register();
  // Past the lease without a renewal another host may already have adopted this one's work: write nothing until renewed.
  store.refuseWritesWhen(() => (performance.now() - lastRenewed > leaseMs ? "this host has not renewed its lease in the cluster in time: it writes nothing until it has" : null));
  await listen();
  await reload();
  await adopt();
  const timer = setInterval(() => void renew(), renewMs);
  timer.unref();
  const sweeper = setInterval(() => {
    if (state === "ok") store.query(`DELETE FROM large_frames WHERE created_at < now() - interval '${LARGE_FRAME_TTL}'`, [], false).catch((error: unknown) => log({ event: "cluster/sweep-failed", error: String(error) }));
  }, 60_000);
  sweeper.unref();

  return {
    id: store.clusterId,
    instance,
    instances: () => live,
    state: () => (state === "ok" && performance.now() - lastRenewed > leaseMs ? "disconnected" : state),
    refusal() {
      if (state === "lost") return "this host's lease in the cluster expired and another host adopted its questions: it accepts no answers; your draft is kept, the page moves to a healthy host";
      if (state === "disconnected" || performance.now() - lastRenewed > leaseMs) return "this host lost its database connection: the answer was not sent; your draft is kept, retry in a moment or through another host";
      return null;
    },
    publish,
    onFrame: (callback) => void frameListeners.add(callback),
    onAnswer: (callback) => void answerListeners.add(callback),
    setOwnTurns(read) {
      ownTurns = read;
    },
    setOwnPending(source) {
      ownPending = source;
    },
    setSettler(settle) {
      settler = settle;
    },
    onUnhealthy: (callback) => void unhealthyListeners.add(callback),
    onStop: (callback) => void stopListeners.add(callback),
    async sendStop(sessionId) {
      await notify(JSON.stringify({ s: instance, stop: sessionId } satisfies Envelope));
    },
    // Oldest first across the cluster: each host's frames arrive in its own order, not interleaved by age.
    pending: () => [...mirror.values()].sort((one, other) => (one.frame.createdAt < other.frame.createdAt ? -1 : one.frame.createdAt > other.frame.createdAt ? 1 : 0)),
    async claimTurn(sessionId) {
      const claimed = await store.query(
        `INSERT INTO turns (session_id, owner) VALUES ($1, $2)
         ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, started_at = now()
         WHERE turns.owner = excluded.owner OR turns.owner NOT IN (SELECT instance FROM hosts WHERE lease_until > now())`,
        [sessionId, instance],
      );
      return (claimed.rowCount ?? 0) > 0;
    },
    async turnsElsewhere() {
      const rows = await store.query<{ session_id: string }>("SELECT session_id FROM turns WHERE owner <> $1 AND owner IN (SELECT instance FROM hosts WHERE lease_until > now())", [instance], false);
      return rows.rows.map((row) => row.session_id);
    },
    async advertise(url) {
      await store.query("UPDATE hosts SET url = $2, machine = $3 WHERE instance = $1", [instance, url.href, hostname()], false);
    },
    async peerUrl(other) {
      if (other === instance) return null;
      const row = await store.query<{ url: string; machine: string | null }>("SELECT url, machine FROM hosts WHERE instance = $1 AND lease_until > now()", [other], false);
      const found = row.rows[0];
      if (!found || !URL.canParse(found.url)) return null;
      const url = new URL(found.url);
      if (found.machine !== hostname() && LOOPBACK_HOSTS.has(url.hostname)) {
        log({ event: "cluster/peer-unreachable", instance: other, url: found.url, reason: "a loopback address on another machine: set PARLEY_PEER_URL on that host" });
        return null;
      }
      return url;
    },
    async releaseTurn(sessionId) {
      await store.query("DELETE FROM turns WHERE session_id = $1 AND owner = $2", [sessionId, instance]);
    },
    question: (rpcId) => mirror.get(rpcId),
    async fetchPending(rpcId) {
      const row = await store.query<PendingRow>("SELECT owner, frame, rule FROM pending WHERE rpc_id = $1 AND state = 'pending'", [rpcId], false);
      return row.rows[0] ? questionOf(row.rows[0]) : undefined;
    },
    async claim(rpcId, outcome, body) {
      const claimed = await store.query<{ owner: string }>("UPDATE pending SET state = $2, response = $3 WHERE rpc_id = $1 AND state = 'pending' RETURNING owner", [rpcId, outcome, JSON.stringify(body)], false);
      return claimed.rows[0]?.owner ?? null;
    },
    async claimAbort(rpcId) {
      // The question's row is written by the publish queue: an abort is claimed only once it is there.
      await outgoing.idle();
      const aborted = await store.query("UPDATE pending SET state = 'aborted' WHERE rpc_id = $1 AND owner = $2 AND state = 'pending'", [rpcId, instance], false);
      if ((aborted.rowCount ?? 0) > 0) return { won: true };
      const row = await store.query<{ state: string; response: string | null }>("SELECT state, response FROM pending WHERE rpc_id = $1", [rpcId], false);
      const stored = row.rows[0];
      // No row (it was never written) or aborted already (adopted, reconciled): nothing can claim it any more.
      if (!stored || stored.state === "aborted" || stored.response === null) return { won: true };
      return { won: false, response: JSON.parse(stored.response) as unknown };
    },
    async sendAnswer(owner, body) {
      await notify(JSON.stringify({ s: instance, to: owner, answer: body } satisfies Envelope));
    },
    flush: () => outgoing.idle(),
    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(sweeper);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      await outgoing.idle();
      if (state !== "lost") await store.query("DELETE FROM hosts WHERE instance = $1", [instance], false).catch((error: unknown) => log({ event: "cluster/leave-failed", error: String(error) }));
      const client = listener;
      listener = null;
      await client?.end();
    },
  };
}
