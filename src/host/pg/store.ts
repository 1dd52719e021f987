import pg from "pg";
import { SessionAgent, type ToolCall } from "../../protocol/schemas";
import { messageFromRow, patchValues, StoreOpenError, type MessageRowOf, type SessionPage, type Store, type StoredGrant, type StoredLogin, type StoredMedia, type StoredMessage, type StoredSession } from "../store";
import { redactUrl } from "./errors";
import { createGuard } from "./guard";
import { migrate } from "./migrations";

/** The Postgres store of a cluster: the same Store, plus what the cluster module builds on. */
export interface PgStore extends Store {
  readonly kind: "postgres";
  /** The cluster's id, kept in the database: the same for every host while the database lives. */
  readonly clusterId: string;
  /** This host process: the owner written on the rows its turns are writing. */
  readonly instance: string;
  readonly pool: pg.Pool;
  /** The connection string (with its password: never logged; `location` is the one to show). */
  readonly url: string;
  /** Runs a query through the store's guard: failures become StorageErrors and set `trouble`. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[], writes?: boolean): Promise<pg.QueryResult<R>>;
  /** Runs `work` in one transaction through the store's guard (Guard.transaction). */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>, writes?: boolean): Promise<T>;
  /** Refuses every write from now on (this host's lease is gone); reads still work. */
  refuseWrites(reason: string): void;
  /** Asked before every write: a reason to refuse it now (the lease may have lapsed), or null. */
  refuseWritesWhen(check: () => string | null): void;
}

export interface PgStoreOptions {
  url: string;
  /** This host process's id (the owner of its rows and its lease). */
  instance: string;
  /** Connections in the pool; default 10. */
  poolSize?: number;
  /** How long a statement waits for a lock before it fails (`lock_timeout`); default 10 s. */
  lockTimeoutMs?: number;
}

/**
 * What bounds a connection's work, so a host or connection that stops mid-way holds up no other: a statement's run and
 * its wait for a lock, a transaction left idle (a host frozen inside an adoption ends it, its locks released), and a
 * connection that went silent (TCP keepalive). Migrations lift the first two for their own transaction.
 */
const bounds = (lockTimeoutMs: number) => ({
  statement_timeout: 30_000,
  lock_timeout: lockTimeoutMs,
  idle_in_transaction_session_timeout: 60_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
});

export interface SessionRow {
  id: string;
  title: string;
  auto_title: boolean;
  created_at: string;
  updated_at: string;
  agent: string | null;
  revision: number;
}

export type MessageRow = MessageRowOf<boolean>;

const BIGINT_OID = 20;
/** Login times are milliseconds since the epoch: within 2^53, so numbers, not strings. */
const types = { getTypeParser: (oid: number, format?: "text" | "binary") => (oid === BIGINT_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) };

export const toSession = (row: SessionRow): StoredSession => ({
  id: row.id,
  title: row.title,
  autoTitle: row.auto_title,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  revision: row.revision,
  ...(row.agent === null ? {} : { agent: SessionAgent.parse(JSON.parse(row.agent)) }),
});

export const toMessage = (row: MessageRow): StoredMessage => messageFromRow(row);

/** The columns a message is written with, in the order of MESSAGE_COLUMNS; computed at the call, so later changes to the object do not leak in. */
const messageValues = (message: StoredMessage) => [
  message.id,
  message.sessionId,
  message.role,
  message.createdAt,
  message.text ?? null,
  message.tool ? JSON.stringify(message.tool) : null,
  message.tool?.status ?? null,
  message.step ?? null,
  message.rawArgs ?? null,
  message.streaming ?? false,
  message.interrupted ?? false,
  message.failure?.code ?? null,
];

const SELECT_MESSAGE = "SELECT id, session_id, role, created_at, text, tool, step, raw_args, streaming, interrupted, failure FROM messages";
export const SELECT_SESSION = "SELECT id, title, auto_title, created_at, updated_at, agent, revision FROM sessions";
/**
 * Rows no listed host owns: left by a host that is gone from the hosts table (adopted, or a store's past before it was a
 * cluster's). A host still listed keeps its rows, its lease lapsed or not: they are its adoption's, which gives a claimed
 * answer to its tool row; stopping them first would leave that answer out (docs/protocol.md, cluster-adopt).
 */
const ORPHANED = "(owner IS NULL OR owner NOT IN (SELECT instance FROM hosts))";

export function isPgStore(store: Store): store is PgStore {
  return store.kind === "postgres";
}

/** Opens the pool, migrates the schema (docs/protocol.md, pg-migrations) and returns the store; StoreOpenError when it cannot. */
export async function openPgStore(options: PgStoreOptions): Promise<PgStore> {
  const location = redactUrl(options.url);
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, types, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000, ...bounds(options.lockTimeoutMs ?? 10_000) });
  const guard = createGuard(pool, location);
  let clusterId: string;
  try {
    const client = await pool.connect();
    try {
      clusterId = await migrate(client);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw new StoreOpenError(`cannot use the database at ${location}: ${(error as Error).message}`);
  }

  const query = guard.query;
  const read = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => query<R>(text, values, false);

  /** Stops the running tool rows no live host owns (their host died, or this store's own past before a restart). */
  const stopRunningTools = (stopped: (tool: ToolCall) => ToolCall) =>
    guard.transaction(async (client) => {
      const rows = await client.query<MessageRow>(`${SELECT_MESSAGE} WHERE tool_status = 'running' AND ${ORPHANED} FOR UPDATE`);
      for (const row of rows.rows) {
        const message = toMessage(row);
        if (!message.tool) continue;
        const tool = stopped(message.tool);
        await client.query("UPDATE messages SET tool = $2, tool_status = 'stopped', interrupted = TRUE WHERE id = $1", [message.id, JSON.stringify(tool)]);
      }
      return rows.rows.length;
    });

  const like = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

  return {
    kind: "postgres",
    location,
    clusterId,
    instance: options.instance,
    pool,
    url: options.url,
    query,
    transaction: guard.transaction,
    refuseWrites: guard.refuseWrites,
    refuseWritesWhen: guard.refuseWritesWhen,
    get trouble() {
      return guard.trouble;
    },
    async listSessions(page?: SessionPage) {
      if (!page) return (await read<SessionRow>(`${SELECT_SESSION} ORDER BY updated_at DESC, seq DESC`)).rows.map(toSession);
      const values: unknown[] = [page.limit];
      const where: string[] = [];
      if (page.query) {
        values.push(like(page.query));
        where.push(`(title ILIKE $${values.length} OR EXISTS (SELECT 1 FROM messages WHERE messages.session_id = sessions.id AND messages.text ILIKE $${values.length}))`);
      }
      if (page.before) {
        values.push(page.before.updatedAt, page.before.id);
        where.push(`(updated_at < $${values.length - 1} OR (updated_at = $${values.length - 1} AND id < $${values.length}))`);
      }
      const sql = `${SELECT_SESSION} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY updated_at DESC, id DESC LIMIT $1`;
      return (await read<SessionRow>(sql, values)).rows.map(toSession);
    },
    async getSession(id) {
      const row = (await read<SessionRow>(`${SELECT_SESSION} WHERE id = $1`, [id])).rows[0];
      return row ? toSession(row) : null;
    },
    async insertSession(session) {
      const values = [session.id, session.title, session.autoTitle, session.createdAt, session.updatedAt, session.agent ? JSON.stringify(session.agent) : null];
      await query("INSERT INTO sessions (id, title, auto_title, created_at, updated_at, agent) VALUES ($1, $2, $3, $4, $5, $6)", values);
    },
    async patchSession(id, patch, when) {
      const values = patchValues(patch, when);
      const row = (
        await query<SessionRow>(
          `UPDATE sessions SET title = COALESCE($2, title), auto_title = COALESCE($3, auto_title), updated_at = COALESCE($4, updated_at), revision = revision + 1
           WHERE id = $1 AND ($5::boolean IS NULL OR auto_title) AND ($6::text IS NULL OR title = $6)
           RETURNING id, title, auto_title, created_at, updated_at, agent, revision`,
          [id, values.title, values.autoTitle, values.updatedAt, values.whenAuto, values.whenTitle],
        )
      ).rows[0];
      return row ? toSession(row) : null;
    },
    async deleteSession(id) {
      return ((await query("DELETE FROM sessions WHERE id = $1", [id])).rowCount ?? 0) > 0;
    },
    async listMessages(sessionId) {
      return (await read<MessageRow>(`${SELECT_MESSAGE} WHERE session_id = $1 ORDER BY seq`, [sessionId])).rows.map(toMessage);
    },
    async insertMessage(message) {
      await query(
        // A row already stored (its first insert committed, its answer was lost) gets its newer version in its place, unless
        // another host settled it meanwhile (an adoption marks each row it settles interrupted): that version stays.
        "INSERT INTO messages (id, session_id, role, created_at, text, tool, tool_status, step, raw_args, streaming, interrupted, failure, owner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO UPDATE SET text = EXCLUDED.text, tool = EXCLUDED.tool, tool_status = EXCLUDED.tool_status, streaming = EXCLUDED.streaming, interrupted = EXCLUDED.interrupted, failure = EXCLUDED.failure WHERE NOT messages.interrupted",
        [...messageValues(message), options.instance],
      );
    },
    async updateMessage(message) {
      const [id, , , , text, tool, status, , , streaming, interrupted, failure] = messageValues(message);
      await query("UPDATE messages SET text = $2, tool = $3, tool_status = $4, streaming = $5, interrupted = $6, failure = $7 WHERE id = $1", [id, text, tool, status, streaming, interrupted, failure]);
    },
    async interruptStreaming() {
      return (await query(`UPDATE messages SET streaming = FALSE, interrupted = TRUE WHERE streaming AND ${ORPHANED}`)).rowCount ?? 0;
    },
    stopRunningTools,
    async insertLogin(login: StoredLogin) {
      await query("INSERT INTO logins (digest, token_digest, issued_at, expires_at) VALUES ($1, $2, $3, $4)", [login.digest, login.tokenDigest, login.issuedAt, login.expiresAt]);
    },
    async getLogin(digest) {
      const rows = await read<StoredLogin>('SELECT digest, token_digest AS "tokenDigest", issued_at AS "issuedAt", expires_at AS "expiresAt" FROM logins WHERE digest = $1', [digest]);
      return rows.rows[0] ?? null;
    },
    async moveLoginExpiry(digest, from, to) {
      return ((await query("UPDATE logins SET expires_at = $3 WHERE digest = $1 AND expires_at = $2", [digest, from, to])).rowCount ?? 0) > 0;
    },
    async deleteLogin(digest) {
      return ((await query("DELETE FROM logins WHERE digest = $1", [digest])).rowCount ?? 0) > 0;
    },
    async purgeLogins(now) {
      return (await query("DELETE FROM logins WHERE expires_at <= $1", [now])).rowCount ?? 0;
    },
    async listGrants(sessionId) {
      const sql = 'SELECT session_id AS "sessionId", server, tool, granted_at AS "grantedAt" FROM grants WHERE session_id = $1 ORDER BY granted_at, server, tool';
      return (await read<StoredGrant>(sql, [sessionId])).rows;
    },
    async addGrant(grant) {
      await query(
        "INSERT INTO grants (session_id, server, tool, granted_at) VALUES ($1, $2, $3, $4) ON CONFLICT (session_id, server, tool) DO UPDATE SET granted_at = excluded.granted_at",
        [grant.sessionId, grant.server, grant.tool, grant.grantedAt],
      );
    },
    async removeGrant(sessionId, server, tool) {
      return ((await query("DELETE FROM grants WHERE session_id = $1 AND server = $2 AND tool = $3", [sessionId, server, tool])).rowCount ?? 0) > 0;
    },
    async putMedia(media: StoredMedia) {
      await query("INSERT INTO media (id, session_id, mime_type, data) VALUES ($1, $2, $3, $4)", [media.id, media.sessionId, media.mimeType, media.data]);
    },
    async getMedia(id) {
      const row = (await read<StoredMedia>('SELECT id, session_id AS "sessionId", mime_type AS "mimeType", data FROM media WHERE id = $1', [id])).rows[0];
      return row ?? null;
    },
    async integrityCheck() {
      await read("SELECT 1");
      return "ok";
    },
    async close() {
      await pool.end();
    },
  };
}
