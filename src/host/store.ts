import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { SessionAgent, type Message, type ToolCall } from "../protocol/schemas";
import { prepareSchema, tuneFileConnection } from "./sqlite-schema";

export { tuneFileConnection };
import { toStorageError, type StorageError } from "./storage-error";

/** A session row; `state` is not stored, the host computes it. */
export interface StoredSession {
  id: string;
  title: string;
  /** Still titled "New chat": the first user message names it. */
  autoTitle: boolean;
  /** The outside agent that asks through this session, when one does. */
  agent?: SessionAgent;
  createdAt: string;
  updatedAt: string;
  /**
   * Counts the row's changes: each write of it adds one, so of two copies of it the one with the higher revision is the
   * newer, whichever reached a tab first (docs/protocol.md, session-revision). A new row starts at 0.
   */
  revision: number;
}

/** A session row as it is first written: its revision is 0. */
export type NewSession = Omit<StoredSession, "revision">;

/** A transcript row plus what only the host needs: the model step it belongs to and the raw tool arguments. */
export interface StoredMessage extends Message {
  step?: string;
  rawArgs?: string;
  /** An assistant row whose text is still arriving; a row left streaming by a crash is marked interrupted at start-up. */
  streaming?: boolean;
}

/** A page of the session list: newest `updatedAt` first, strictly after the `before` position, titles or message text containing `query`. */
export interface SessionPage {
  limit: number;
  before?: { updatedAt: string; id: string };
  query?: string;
}

/** A browser login made from the token link; only digests are stored. */
export interface StoredLogin {
  digest: string;
  tokenDigest: string;
  issuedAt: number;
  expiresAt: number;
}

/** A tool an outside agent may run in a session without asking again ("always allow"). */
export interface StoredGrant {
  sessionId: string;
  /** The MCP server the tool belongs to. */
  server: string;
  tool: string;
  grantedAt: string;
}

/** A binary attachment of a session (an image a tool returned, say). */
export interface StoredMedia {
  id: string;
  sessionId: string;
  mimeType: string;
  data: Buffer;
}

/**
 * Sessions, transcripts, logins, grants and media: the one interface the host calls (docs/architecture.md, Store).
 * SQLite (`openStore`) is the embedded default; `src/host/pg/store.ts` is the shared one of a cluster.
 * Every method returns a promise; a failure rejects with a StorageError.
 */
export interface Store {
  /** Which engine holds the data, as `GET /api/health` reports it. */
  readonly kind: "sqlite" | "postgres";
  readonly location: string;
  /** The last failure of a read or write, cleared by the next one that succeeds. */
  readonly trouble: StorageError | null;
  /** Every session, newest first; with a page, at most `limit` of them after the cursor, optionally matching a query. */
  listSessions(page?: SessionPage): Promise<StoredSession[]>;
  getSession(id: string): Promise<StoredSession | null>;
  insertSession(session: NewSession): Promise<void>;
  /**
   * Changes the fields `patch` names and no others, in one statement, when the row still holds what `when` names; returns
   * the row as it is after the change, or null when no row matched (gone, or `when` no longer holds). Two writers never
   * undo each other's fields, and what the host publishes is the row as stored.
   */
  patchSession(id: string, patch: SessionPatch, when?: SessionCondition): Promise<StoredSession | null>;
  /** Deletes the session with its messages, grants and media; false when it did not exist. */
  deleteSession(id: string): Promise<boolean>;
  listMessages(sessionId: string): Promise<StoredMessage[]>;
  insertMessage(message: StoredMessage): Promise<void>;
  updateMessage(message: StoredMessage): Promise<void>;
  /** Marks every assistant row still streaming as interrupted; returns how many changed. */
  interruptStreaming(): Promise<number>;
  /** Marks every tool row still `running` as `stopped(tool)` and `interrupted` (the host lost it); returns how many changed. */
  stopRunningTools(stopped: (tool: ToolCall) => ToolCall): Promise<number>;
  insertLogin(login: StoredLogin): Promise<void>;
  getLogin(digest: string): Promise<StoredLogin | null>;
  /** Moves a login's expiry from `from` to `to`; false when it no longer ends at `from` (another request moved it first). */
  moveLoginExpiry(digest: string, from: number, to: number): Promise<boolean>;
  deleteLogin(digest: string): Promise<boolean>;
  /** Removes logins that expired before `now`; returns how many. */
  purgeLogins(now: number): Promise<number>;
  /** The session's grants, oldest first. */
  listGrants(sessionId: string): Promise<StoredGrant[]>;
  /** Adds a grant; granting the same tool again only moves its `grantedAt`. */
  addGrant(grant: StoredGrant): Promise<void>;
  /** Removes a grant; false when there was none. */
  removeGrant(sessionId: string, server: string, tool: string): Promise<boolean>;
  putMedia(media: StoredMedia): Promise<void>;
  getMedia(id: string): Promise<StoredMedia | null>;
  /** "ok" when the database is sound (SQLite's `PRAGMA integrity_check`). */
  integrityCheck(): Promise<string>;
  close(): Promise<void>;
}

/** The fields of a session a write may change. */
export interface SessionPatch {
  title?: string;
  autoTitle?: boolean;
  updatedAt?: string;
}

/** What a session must still hold for a patch to apply: its title still automatic, or exactly this title. */
export interface SessionCondition {
  autoTitle?: true;
  title?: string;
}

/** The bound values of a patch: null leaves a field (or a condition) out. */
export function patchValues(patch: SessionPatch, when: SessionCondition = {}) {
  return {
    title: patch.title ?? null,
    autoTitle: patch.autoTitle ?? null,
    updatedAt: patch.updatedAt ?? null,
    whenAuto: when.autoTitle ?? null,
    whenTitle: when.title ?? null,
  };
}

/** The database could not be opened or prepared; the message says where and why. */
export class StoreOpenError extends Error {
  override readonly name = "StoreOpenError";
}

interface SessionRow {
  id: string;
  title: string;
  auto_title: number;
  created_at: string;
  updated_at: string;
  agent: string | null;
  revision: number;
}

/** A messages row as a driver returns it; `Flag` is how the driver reads a boolean column (SQLite: 0/1). */
export interface MessageRowOf<Flag> {
  id: string;
  session_id: string;
  role: Message["role"];
  created_at: string;
  text: string | null;
  tool: string | null;
  step: string | null;
  raw_args: string | null;
  streaming: Flag;
  interrupted: Flag;
  failure: string | null;
}

type MessageRow = MessageRowOf<number>;

/** A stored message from its row, for either driver: a flag is set when its column is true (Postgres) or 1 (SQLite). */
export function messageFromRow(row: MessageRowOf<number | boolean>): StoredMessage {
  return {
    id: row.id,
    sessionId: row.session_id,
    role: row.role,
    createdAt: row.created_at,
    ...(row.text === null ? {} : { text: row.text }),
    ...(row.tool === null ? {} : { tool: JSON.parse(row.tool) as ToolCall }),
    ...(row.step === null ? {} : { step: row.step }),
    ...(row.raw_args === null ? {} : { rawArgs: row.raw_args }),
    ...(row.streaming === true || row.streaming === 1 ? { streaming: true } : {}),
    ...(row.interrupted === true || row.interrupted === 1 ? { interrupted: true } : {}),
    ...(row.failure === null ? {} : { failure: { code: row.failure } }),
  };
}

export const DATABASE_FILE = "parley.sqlite3";

/** The SQLite store (better-sqlite3, WAL): opens (creating if needed) the database in `dataDir`, or an in-memory one for ":memory:". */
export function openStore(dataDir: string): Store {
  const location = dataDir === ":memory:" ? ":memory:" : path.join(path.resolve(dataDir), DATABASE_FILE);
  let db: Database.Database;
  try {
    if (location !== ":memory:") mkdirSync(path.dirname(location), { recursive: true });
    db = new Database(location);
  } catch (error) {
    throw new StoreOpenError(`cannot open the database at ${location}: ${(error as Error).message}`);
  }
  try {
    if (location !== ":memory:") tuneFileConnection(db);
    db.pragma("foreign_keys = ON");
    prepareSchema(db);
  } catch (error) {
    db.close();
    throw new StoreOpenError(`cannot use the database at ${location}: ${(error as Error).message}`);
  }
  return createStore(db, location);
}

function createStore(db: Database.Database, location: string): Store {
  const statements = {
    listSessions: db.prepare<[], SessionRow>("SELECT * FROM sessions ORDER BY updated_at DESC, rowid DESC"),
    getSession: db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE id = ?"),
    insertSession: db.prepare("INSERT INTO sessions (id, title, auto_title, created_at, updated_at, agent) VALUES (@id, @title, @auto_title, @created_at, @updated_at, @agent)"),
    patchSession: db.prepare<[Record<string, unknown>], SessionRow>(
      "UPDATE sessions SET title = COALESCE(@title, title), auto_title = COALESCE(@auto_title, auto_title), updated_at = COALESCE(@updated_at, updated_at), revision = revision + 1 WHERE id = @id AND (@when_auto IS NULL OR auto_title = 1) AND (@when_title IS NULL OR title = @when_title) RETURNING *",
    ),
    deleteSession: db.prepare("DELETE FROM sessions WHERE id = ?"),
    listMessages: db.prepare<[string], MessageRow>("SELECT * FROM messages WHERE session_id = ? ORDER BY seq"),
    // Inserting a row already stored (its first insert landed, its answer did not) writes its newer version in its place.
    insertMessage: db.prepare(
      "INSERT INTO messages (id, session_id, role, created_at, text, tool, tool_status, step, raw_args, streaming, interrupted, failure) VALUES (@id, @session_id, @role, @created_at, @text, @tool, @tool_status, @step, @raw_args, @streaming, @interrupted, @failure) ON CONFLICT (id) DO UPDATE SET text = excluded.text, tool = excluded.tool, tool_status = excluded.tool_status, streaming = excluded.streaming, interrupted = excluded.interrupted, failure = excluded.failure",
    ),
    updateMessage: db.prepare("UPDATE messages SET text = @text, tool = @tool, tool_status = @tool_status, streaming = @streaming, interrupted = @interrupted, failure = @failure WHERE id = @id"),
    interruptStreaming: db.prepare("UPDATE messages SET streaming = 0, interrupted = 1 WHERE streaming = 1"),
    runningTools: db.prepare<[], MessageRow>("SELECT * FROM messages WHERE tool_status = 'running'"),
    insertLogin: db.prepare("INSERT INTO logins (digest, token_digest, issued_at, expires_at) VALUES (@digest, @tokenDigest, @issuedAt, @expiresAt)"),
    getLogin: db.prepare<[string], StoredLogin>("SELECT digest, token_digest AS tokenDigest, issued_at AS issuedAt, expires_at AS expiresAt FROM logins WHERE digest = ?"),
    moveLoginExpiry: db.prepare("UPDATE logins SET expires_at = @to WHERE digest = @digest AND expires_at = @from"),
    deleteLogin: db.prepare("DELETE FROM logins WHERE digest = ?"),
    purgeLogins: db.prepare("DELETE FROM logins WHERE expires_at <= ?"),
    listGrants: db.prepare<[string], StoredGrant>("SELECT session_id AS sessionId, server, tool, granted_at AS grantedAt FROM grants WHERE session_id = ? ORDER BY granted_at, server, tool"),
    addGrant: db.prepare(
      "INSERT INTO grants (session_id, server, tool, granted_at) VALUES (@sessionId, @server, @tool, @grantedAt) ON CONFLICT (session_id, server, tool) DO UPDATE SET granted_at = excluded.granted_at",
    ),
    removeGrant: db.prepare("DELETE FROM grants WHERE session_id = ? AND server = ? AND tool = ?"),
    putMedia: db.prepare("INSERT INTO media (id, session_id, mime_type, data) VALUES (@id, @sessionId, @mimeType, @data)"),
    getMedia: db.prepare<[string], StoredMedia>("SELECT id, session_id AS sessionId, mime_type AS mimeType, data FROM media WHERE id = ?"),
  };

  const toSession = (row: SessionRow): StoredSession => ({
    id: row.id,
    title: row.title,
    autoTitle: row.auto_title === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    revision: row.revision,
    ...(row.agent === null ? {} : { agent: SessionAgent.parse(JSON.parse(row.agent)) }),
  });
  const sessionParams = (session: NewSession) => ({
    id: session.id,
    title: session.title,
    auto_title: session.autoTitle ? 1 : 0,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
    agent: session.agent ? JSON.stringify(session.agent) : null,
  });
  const toMessage = (row: MessageRow) => messageFromRow(row);
  const messageParams = (message: StoredMessage) => ({
    id: message.id,
    session_id: message.sessionId,
    role: message.role,
    created_at: message.createdAt,
    text: message.text ?? null,
    tool: message.tool ? JSON.stringify(message.tool) : null,
    tool_status: message.tool?.status ?? null,
    step: message.step ?? null,
    raw_args: message.rawArgs ?? null,
    streaming: message.streaming ? 1 : 0,
    interrupted: message.interrupted ? 1 : 0,
    failure: message.failure?.code ?? null,
  });

  const stopRunning = db.transaction((stopped: (tool: ToolCall) => ToolCall) => {
    const rows = statements.runningTools.all();
    for (const row of rows) {
      const message = toMessage(row);
      if (!message.tool) continue;
      statements.updateMessage.run(messageParams({ ...message, interrupted: true, tool: stopped(message.tool) }));
    }
    return rows.length;
  });

  /** Every call that touches the database: driver errors become StorageErrors naming the data dir, and the last failure is kept for health. */
  let trouble: StorageError | null = null;
  /** better-sqlite3 is synchronous: the work happens at the call, and its promise is already settled. */
  function guard<A extends unknown[], R>(run: (...args: A) => R, writes = true): (...args: A) => Promise<R> {
    return (...args) => {
      try {
        const result = run(...args);
        if (writes) trouble = null;
        return Promise.resolve(result);
      } catch (error) {
        trouble = toStorageError(error, path.dirname(location));
        return Promise.reject(trouble);
      }
    };
  }

  const pageStatement = (query: boolean, before: boolean) =>
    db.prepare<unknown[], SessionRow>(
      [
        "SELECT * FROM sessions WHERE 1 = 1",
        query ? "AND (title LIKE @like ESCAPE '\\' OR EXISTS (SELECT 1 FROM messages WHERE messages.session_id = sessions.id AND messages.text LIKE @like ESCAPE '\\'))" : "",
        before ? "AND (updated_at < @updatedAt OR (updated_at = @updatedAt AND id < @id))" : "",
        "ORDER BY updated_at DESC, id DESC LIMIT @limit",
      ].join(" "),
    );
  const pages = [pageStatement(false, false), pageStatement(false, true), pageStatement(true, false), pageStatement(true, true)] as const;

  return {
    kind: "sqlite",
    location,
    get trouble() {
      return trouble;
    },
    listSessions: guard((page?: SessionPage) => {
      if (!page) return statements.listSessions.all().map(toSession);
      const statement = pages[(page.query ? 2 : 0) + (page.before ? 1 : 0)]!;
      const like = page.query ? `%${page.query.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : undefined;
      return statement.all({ limit: page.limit, ...(like === undefined ? {} : { like }), ...(page.before ?? {}) }).map(toSession);
    }, false),
    getSession: guard((id: string) => {
      const row = statements.getSession.get(id);
      return row ? toSession(row) : null;
    }, false),
    insertSession: guard((session: NewSession) => void statements.insertSession.run(sessionParams(session))),
    patchSession: guard((id: string, patch: SessionPatch, when?: SessionCondition) => {
      const values = patchValues(patch, when);
      const row = statements.patchSession.get({
        id,
        title: values.title,
        auto_title: values.autoTitle === null ? null : values.autoTitle ? 1 : 0,
        updated_at: values.updatedAt,
        when_auto: values.whenAuto === null ? null : 1,
        when_title: values.whenTitle,
      });
      return row ? toSession(row) : null;
    }),
    deleteSession: guard((id: string) => statements.deleteSession.run(id).changes > 0),
    listMessages: guard((sessionId: string) => statements.listMessages.all(sessionId).map(toMessage), false),
    insertMessage: guard((message: StoredMessage) => void statements.insertMessage.run(messageParams(message))),
    updateMessage: guard((message: StoredMessage) => void statements.updateMessage.run(messageParams(message))),
    stopRunningTools: guard((stopped: (tool: ToolCall) => ToolCall) => stopRunning(stopped)),
    interruptStreaming: guard(() => statements.interruptStreaming.run().changes),
    insertLogin: guard((login: StoredLogin) => void statements.insertLogin.run(login)),
    getLogin: guard((digest: string) => statements.getLogin.get(digest) ?? null, false),
    moveLoginExpiry: guard((digest: string, from: number, to: number) => statements.moveLoginExpiry.run({ digest, from, to }).changes > 0),
    deleteLogin: guard((digest: string) => statements.deleteLogin.run(digest).changes > 0),
    purgeLogins: guard((now: number) => statements.purgeLogins.run(now).changes),
    listGrants: guard((sessionId: string) => statements.listGrants.all(sessionId), false),
    addGrant: guard((grant: StoredGrant) => void statements.addGrant.run(grant)),
    removeGrant: guard((sessionId: string, server: string, tool: string) => statements.removeGrant.run(sessionId, server, tool).changes > 0),
    putMedia: guard((media: StoredMedia) => void statements.putMedia.run(media)),
    getMedia: guard((id: string) => statements.getMedia.get(id) ?? null, false),
    integrityCheck: guard(() => db.pragma("integrity_check", { simple: true }) as string, false),
    close: async () => {
      db.close();
    },
  };
}
