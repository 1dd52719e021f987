import pg from "pg";
import type { DownFrame } from "../../protocol/schemas";
import type { AnswerRule } from "../pending/answer-rule";
import type { Logger } from "../log";
import type { PgStore } from "./store";

/**
 * The cluster's NOTIFY channel (docs/architecture.md, Several hosts): the envelopes hosts send each other, frames too
 * large for a notification kept as rows, and the LISTEN connection that hands every notification on and reconnects.
 */
export const CHANNEL = "parley";
/** Postgres refuses a NOTIFY payload of 8000 bytes or more; larger frames travel as a row whose id is notified. */
export const NOTIFY_LIMIT_BYTES = 7900;
const LARGE_FRAME_TTL = "5 minutes";
/** Notifications sent by one statement when frames queue up. */
const NOTIFY_BATCH = 64;

/** What one host notifies: a frame (with its question's rule), a large frame's row, an answer for its owner, a stop, or a change of the push subscriptions. */
export type Envelope =
  | { s: string; f: DownFrame; rule?: AnswerRule }
  | { s: string; r: number }
  | { s: string; to: string; answer: unknown }
  | { s: string; stop: string }
  | { s: string; changed: "push" };

/** The payload to notify for `data`: itself, or the id of the row it was written to when it is too large. */
export async function notePayload(store: PgStore, instance: string, data: string): Promise<string> {
  if (Buffer.byteLength(data) <= NOTIFY_LIMIT_BYTES) return data;
  const row = await store.query<{ id: string }>("INSERT INTO large_frames (payload) VALUES ($1) RETURNING id", [data], false);
  return JSON.stringify({ s: instance, r: Number(row.rows[0]!.id) } satisfies Envelope);
}

/** One statement and its values, numbered from $1. */
export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * The condition that host `$n`'s lease row is there, taking a key-share lock on it for the statement: an adoption deletes
 * that row first in its transaction, so a statement that comes while one runs waits for it and then finds no row, and one
 * that came first is done before the adoption reads the host's rows. (A key-share lock does not hold up a renewal.)
 */
export const leaseHeld = (n: number) => `EXISTS (SELECT 1 FROM hosts WHERE instance = $${n} FOR KEY SHARE)`;

/** A payload to notify; `leased`: only while the lease row of the host `notifyAll` names is there (see leaseHeld). */
export interface Note {
  payload: string;
  leased?: boolean;
}

/**
 * Notifies the payloads in order, many to a statement. `write`, when given, runs in the first of those statements (a
 * data-modifying WITH): one round trip fewer, and its change and the notifications commit together. A note marked
 * `leased` goes only while host `lessee`'s lease row is there (the lock is taken once a statement, in a CTE of its own,
 * so a row it drops after waiting was never notified); resolves false when one was held back for that, else true.
 */
export async function notifyAll(store: PgStore, notes: readonly (string | Note)[], write?: Statement, lessee?: string): Promise<boolean> {
  let held = true;
  for (let start = 0; start < notes.length; start += NOTIFY_BATCH) {
    const chunk = notes.slice(start, start + NOTIFY_BATCH).map((note): Note => (typeof note === "string" ? { payload: note } : note));
    const before = start === 0 && write ? write : null;
    const values: unknown[] = [...(before?.values ?? []), CHANNEL];
    const channel = `$${values.length}`;
    const leased = lessee !== undefined && chunk.some((note) => note.leased);
    const lease = leased ? `lease AS (SELECT 1 FROM hosts WHERE instance = $${values.push(lessee)} FOR KEY SHARE)` : null;
    const columns = chunk.map((note) => {
      const notify = `pg_notify(${channel}, $${values.push(note.payload)})`;
      return leased && note.leased ? `(SELECT ${notify} FROM lease)` : notify;
    });
    if (leased) columns.push("(SELECT count(*) FROM lease)::int AS leased");
    const ctes = [...(before ? [`written AS (${before.text})`] : []), ...(lease ? [lease] : [])];
    const sent = await store.query<{ leased?: number }>(`${ctes.length > 0 ? `WITH ${ctes.join(", ")} ` : ""}SELECT ${columns.join(", ")}`, values, false);
    if (leased && sent.rows[0]?.leased === 0) held = false;
  }
  return held;
}

/** A received payload as its envelope, a large frame read back from its row; null when `instance` (this host) sent it. */
export async function openEnvelope(store: PgStore, instance: string, payload: string): Promise<Envelope | null> {
  const envelope = JSON.parse(payload) as Envelope;
  if (envelope.s === instance) return null;
  if (!("r" in envelope)) return envelope;
  const row = await store.query<{ payload: string }>("SELECT payload FROM large_frames WHERE id = $1", [envelope.r], false);
  if (!row.rows[0]) throw new Error(`large frame ${envelope.r} from ${envelope.s} is gone`);
  return JSON.parse(row.rows[0].payload) as Envelope;
}

/** Deletes the rows of large frames every host had time to read. */
export async function sweepLargeFrames(store: PgStore): Promise<void> {
  await store.query(`DELETE FROM large_frames WHERE created_at < now() - interval '${LARGE_FRAME_TTL}'`, [], false);
}

export interface ListenerOptions {
  url: string;
  log: Logger;
  /** The wait before connecting again after the connection was lost. */
  retryMs: number;
  onPayload(payload: string): void;
  /** The connection failed or ended: notifications may have been missed. */
  onLost(): void;
  /** Listening again after a loss. */
  onReconnected(): void;
}

/** The LISTEN connection of a host. */
export interface Listener {
  /** Listening now. */
  connected(): boolean;
  /** Stops reconnecting: a connection lost from now on stays lost. */
  stop(): void;
  /** Closes the connection. */
  end(): Promise<void>;
}

/** Connects and listens on the channel (rejects when the first connection fails); a lost connection is retried until stopped. */
export async function startListener(options: ListenerOptions): Promise<Listener> {
  const { log } = options;
  let listener: pg.Client | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let closed = false;
  async function listen() {
    // Keepalive: a connection a network dropped without a word is found lost, and listened on again.
    const client = new pg.Client({ connectionString: options.url, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload !== undefined) options.onPayload(message.payload);
    });
    client.on("error", (error) => {
      log({ event: "cluster/listener-failed", error: error.message });
      if (listener === client) listener = null;
      options.onLost();
      scheduleListen();
    });
    client.on("end", () => {
      if (listener !== client || closed) return;
      listener = null;
      log({ event: "cluster/listener-ended" });
      options.onLost();
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
        () => options.onReconnected(),
        (error: unknown) => {
          log({ event: "cluster/listen-failed", error: error instanceof Error ? error.message : String(error) });
          scheduleListen();
        },
      );
    }, options.retryMs);
    reconnectTimer.unref();
  }
  await listen();
  return {
    connected: () => listener !== null,
    stop() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
    },
    async end() {
      const client = listener;
      listener = null;
      await client?.end();
    },
  };
}
