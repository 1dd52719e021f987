import { randomUUID } from "node:crypto";
import type pg from "pg";

/**
 * The Postgres schema, one entry per version (docs/protocol.md, pg-migrations). Each runs once, in the
 * transaction that holds the migration lock, so hosts starting together migrate one after another.
 */
export const PG_MIGRATIONS: readonly (readonly string[])[] = [
  // 1: the store (sessions, transcripts, logins, grants, media) and the cluster (leases, pending questions, large frames).
  [
    `CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      seq BIGSERIAL NOT NULL,
      title TEXT NOT NULL,
      auto_title BOOLEAN NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      agent TEXT
    )`,
    "CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id DESC)",
    `CREATE TABLE messages (
      seq BIGSERIAL PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      role TEXT NOT NULL,
      created_at TEXT NOT NULL,
      text TEXT,
      tool TEXT,
      tool_status TEXT,
      step TEXT,
      raw_args TEXT,
      streaming BOOLEAN NOT NULL DEFAULT FALSE,
      interrupted BOOLEAN NOT NULL DEFAULT FALSE,
      failure TEXT,
      owner TEXT
    )`,
    "CREATE INDEX messages_by_session ON messages (session_id, seq)",
    "CREATE INDEX messages_running ON messages (owner) WHERE tool_status = 'running' OR streaming",
    `CREATE TABLE logins (
      digest TEXT PRIMARY KEY,
      token_digest TEXT NOT NULL,
      issued_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    `CREATE TABLE grants (
      session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      server TEXT NOT NULL,
      tool TEXT NOT NULL,
      granted_at TEXT NOT NULL,
      PRIMARY KEY (session_id, server, tool)
    )`,
    `CREATE TABLE media (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      mime_type TEXT NOT NULL,
      data BYTEA NOT NULL
    )`,
    "CREATE INDEX media_by_session ON media (session_id)",
    `CREATE TABLE hosts (
      instance TEXT PRIMARY KEY,
      url TEXT NOT NULL,
      started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      lease_until TIMESTAMPTZ NOT NULL
    )`,
    `CREATE TABLE pending (
      rpc_id TEXT PRIMARY KEY,
      seq BIGSERIAL NOT NULL,
      session_id TEXT NOT NULL,
      owner TEXT NOT NULL,
      frame TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'pending',
      response TEXT
    )`,
    "CREATE INDEX pending_open ON pending (seq) WHERE state = 'pending'",
    `CREATE TABLE large_frames (
      id BIGSERIAL PRIMARY KEY,
      payload TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`,
  ],
  // 2: which host runs each session's turn, so a message posted through another host cannot start a second one.
  ["CREATE TABLE turns (session_id TEXT PRIMARY KEY, owner TEXT NOT NULL, started_at TIMESTAMPTZ NOT NULL DEFAULT now())"],
  // 3: the rule a question was asked with beyond the answer rules (an elicitation's schema), so every host judges its answers.
  // and the machine each host runs on, so a loopback address another machine advertised is never dialled.
  ["ALTER TABLE pending ADD COLUMN rule TEXT", "ALTER TABLE hosts ADD COLUMN machine TEXT"],
  // 4: the transcript row a question was asked for, so a host that adopts a dead one writes an answer it had claimed into it.
  ["ALTER TABLE pending ADD COLUMN message_id TEXT"],
  // 5: Web Push: the cluster's one VAPID key pair and every device's subscription (src/host/push/pg-push-store.ts).
  [
    "CREATE TABLE push_keys (id INTEGER PRIMARY KEY CHECK (id = 1), public_key TEXT NOT NULL, private_key TEXT NOT NULL)",
    `CREATE TABLE push_subscriptions (
      endpoint TEXT PRIMARY KEY,
      p256dh TEXT NOT NULL,
      auth TEXT NOT NULL,
      owner TEXT NOT NULL,
      label TEXT,
      hide_text BOOLEAN NOT NULL DEFAULT FALSE,
      created_at BIGINT NOT NULL
    )`,
    "CREATE INDEX push_subscriptions_owner ON push_subscriptions (owner)",
  ],
  // 6: each session row counts its writes, so a tab keeps the newest of two copies whichever host's frame came last.
  ["ALTER TABLE sessions ADD COLUMN revision INTEGER NOT NULL DEFAULT 0"],
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** A key for `pg_advisory_xact_lock`: one lock that every Parley host takes to migrate. */
const MIGRATION_LOCK = 0x7061726c; // "parl"

/**
 * Brings the database to PG_SCHEMA_VERSION in one transaction under an advisory lock; refuses a newer schema.
 * Resolves with the cluster's id, made by the first host that ever migrated this database.
 */
export async function migrate(client: pg.ClientBase): Promise<string> {
  await client.query("BEGIN");
  try {
    // A migration may wait for another host's, and rewrite large tables: the pool's bounds are not for it.
    await client.query("SET LOCAL statement_timeout = 0");
    await client.query("SET LOCAL lock_timeout = 0");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS parley_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const found = await client.query<{ value: string }>("SELECT value FROM parley_meta WHERE key = 'schema'");
    const version = found.rows[0] ? Number(found.rows[0].value) : 0;
    if (version > PG_SCHEMA_VERSION) throw new Error(`it was written by a newer Parley (schema ${version}, this host knows ${PG_SCHEMA_VERSION})`);
    for (const statements of PG_MIGRATIONS.slice(version)) for (const statement of statements) await client.query(statement);
    await client.query("INSERT INTO parley_meta (key, value) VALUES ('schema', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [String(PG_SCHEMA_VERSION)]);
    await client.query("INSERT INTO parley_meta (key, value) VALUES ('cluster', $1) ON CONFLICT (key) DO NOTHING", [randomUUID()]);
    const cluster = await client.query<{ value: string }>("SELECT value FROM parley_meta WHERE key = 'cluster'");
    await client.query("COMMIT");
    return cluster.rows[0]!.value;
  } catch (error) {
    // The error thrown is the one that broke the migration; a rollback on a dead connection adds nothing to it.
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
