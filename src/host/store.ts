import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Message, ToolCall, ToolError } from "../protocol/schemas";

/** A session row; `state` is not stored, the host computes it. */
export interface StoredSession {
  id: string;
  title: string;
  /** Still titled "New chat": the first user message names it. */
  autoTitle: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A transcript row plus what only the host needs: the model step it belongs to and the raw tool arguments. */
export interface StoredMessage extends Message {
  step?: string;
  rawArgs?: string;
}

/** Sessions and transcripts in SQLite (better-sqlite3, WAL). */
export interface Store {
  readonly location: string;
  listSessions(): StoredSession[];
  getSession(id: string): StoredSession | null;
  insertSession(session: StoredSession): void;
  updateSession(session: StoredSession): void;
  deleteSession(id: string): boolean;
  listMessages(sessionId: string): StoredMessage[];
  insertMessage(message: StoredMessage): void;
  updateMessage(message: StoredMessage): void;
  /** Marks every tool row still `running` as `stopped` with `error`; returns how many changed. */
  stopRunningTools(error: ToolError, result: string): number;
  close(): void;
}

/** The database could not be opened or prepared; the message says where and why. */
export class StoreOpenError extends Error {
  override readonly name = "StoreOpenError";
}

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  auto_title INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  created_at TEXT NOT NULL,
  text TEXT,
  tool TEXT,
  tool_status TEXT,
  step TEXT,
  raw_args TEXT
);
CREATE INDEX IF NOT EXISTS messages_by_session ON messages(session_id, seq);
CREATE INDEX IF NOT EXISTS messages_by_tool_status ON messages(tool_status);
`;

interface SessionRow {
  id: string;
  title: string;
  auto_title: number;
  created_at: string;
  updated_at: string;
}

interface MessageRow {
  id: string;
  session_id: string;
  role: Message["role"];
  created_at: string;
  text: string | null;
  tool: string | null;
  step: string | null;
  raw_args: string | null;
}

export const DATABASE_FILE = "parley.sqlite3";

/** Opens (creating if needed) the database in `dataDir`, or an in-memory one for ":memory:". */
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
    if (location !== ":memory:") db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 2000");
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw new Error(`it was written by a newer Parley (schema ${version}, this host knows ${SCHEMA_VERSION})`);
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
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
    insertSession: db.prepare("INSERT INTO sessions (id, title, auto_title, created_at, updated_at) VALUES (@id, @title, @auto_title, @created_at, @updated_at)"),
    updateSession: db.prepare("UPDATE sessions SET title = @title, auto_title = @auto_title, updated_at = @updated_at WHERE id = @id"),
    deleteSession: db.prepare("DELETE FROM sessions WHERE id = ?"),
    listMessages: db.prepare<[string], MessageRow>("SELECT * FROM messages WHERE session_id = ? ORDER BY seq"),
    insertMessage: db.prepare(
      "INSERT INTO messages (id, session_id, role, created_at, text, tool, tool_status, step, raw_args) VALUES (@id, @session_id, @role, @created_at, @text, @tool, @tool_status, @step, @raw_args)",
    ),
    updateMessage: db.prepare("UPDATE messages SET text = @text, tool = @tool, tool_status = @tool_status WHERE id = @id"),
    runningTools: db.prepare<[], MessageRow>("SELECT * FROM messages WHERE tool_status = 'running'"),
  };

  const toSession = (row: SessionRow): StoredSession => ({
    id: row.id,
    title: row.title,
    autoTitle: row.auto_title === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
  const sessionParams = (session: StoredSession) => ({
    id: session.id,
    title: session.title,
    auto_title: session.autoTitle ? 1 : 0,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  });
  const toMessage = (row: MessageRow): StoredMessage => ({
    id: row.id,
    sessionId: row.session_id,
    role: row.role,
    createdAt: row.created_at,
    ...(row.text === null ? {} : { text: row.text }),
    ...(row.tool === null ? {} : { tool: JSON.parse(row.tool) as ToolCall }),
    ...(row.step === null ? {} : { step: row.step }),
    ...(row.raw_args === null ? {} : { rawArgs: row.raw_args }),
  });
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
  });

  const stopRunning = db.transaction((error: ToolError, result: string) => {
    const rows = statements.runningTools.all();
    for (const row of rows) {
      const message = toMessage(row);
      if (!message.tool) continue;
      statements.updateMessage.run(messageParams({ ...message, tool: { ...message.tool, status: "stopped", result, error } }));
    }
    return rows.length;
  });

  return {
    location,
    listSessions: () => statements.listSessions.all().map(toSession),
    getSession: (id) => {
      const row = statements.getSession.get(id);
      return row ? toSession(row) : null;
    },
    insertSession: (session) => void statements.insertSession.run(sessionParams(session)),
    updateSession: (session) => void statements.updateSession.run(sessionParams(session)),
    deleteSession: (id) => statements.deleteSession.run(id).changes > 0,
    listMessages: (sessionId) => statements.listMessages.all(sessionId).map(toMessage),
    insertMessage: (message) => void statements.insertMessage.run(messageParams(message)),
    updateMessage: (message) => void statements.updateMessage.run(messageParams(message)),
    stopRunningTools: (error, result) => stopRunning(error, result),
    close: () => db.close(),
  };
}
