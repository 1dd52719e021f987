import type Database from "better-sqlite3";
import { z } from "zod/mini";
import { AnswerItem, TOOL_NAMES, type ToolCall, type ToolRowOutcome } from "../protocol/schemas";

/**
 * The SQLite store's schema and its migrations: a file of an older schema is brought up to this one in one transaction
 * when it is opened; a file of a newer Parley is refused.
 */

/** The schema this host writes (`PRAGMA user_version`). */
const SCHEMA_VERSION = 4;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  auto_title INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  agent TEXT,
  revision INTEGER NOT NULL DEFAULT 0
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
  raw_args TEXT,
  streaming INTEGER NOT NULL DEFAULT 0,
  interrupted INTEGER NOT NULL DEFAULT 0,
  failure TEXT
);
CREATE INDEX IF NOT EXISTS messages_by_session ON messages(session_id, seq);
CREATE INDEX IF NOT EXISTS messages_by_tool_status ON messages(tool_status);
CREATE TABLE IF NOT EXISTS logins (
  digest TEXT PRIMARY KEY,
  token_digest TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS grants (
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  server TEXT NOT NULL,
  tool TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (session_id, server, tool)
);
CREATE TABLE IF NOT EXISTS media (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  mime_type TEXT NOT NULL,
  data BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS media_by_session ON media(session_id);
`;

/** Schema 3 → 4 (and every older file): each session row counts its writes (docs/protocol.md, session-revision). */
const ADD_REVISION = "ALTER TABLE sessions ADD COLUMN revision INTEGER NOT NULL DEFAULT 0";

/* Schema 2 → 3: grants and media, both created by SCHEMA (IF NOT EXISTS) inside the migration's transaction. */

/** Schema 1 → 2: logins (created by SCHEMA), the outside agent of a session, and the streaming and interrupted marks of assistant rows. */
const MIGRATE_FROM_1 = [
  "ALTER TABLE sessions ADD COLUMN agent TEXT",
  "ALTER TABLE messages ADD COLUMN streaming INTEGER NOT NULL DEFAULT 0",
  "ALTER TABLE messages ADD COLUMN interrupted INTEGER NOT NULL DEFAULT 0",
  "ALTER TABLE messages ADD COLUMN failure TEXT",
];

/** Schema 1 → 2: finished ask and plan rows get the outcome the transcript reads, recovered once here from the result text they stored. */
function backfillOutcomes(db: Database.Database) {
  const rows = db.prepare<[], { id: string; tool: string }>("SELECT id, tool FROM messages WHERE tool_status = 'ok'").all();
  const update = db.prepare("UPDATE messages SET tool = ? WHERE id = ?");
  for (const row of rows) {
    const tool = JSON.parse(row.tool) as ToolCall;
    const outcome = outcomeFromResult(tool);
    if (outcome) update.run(JSON.stringify({ ...tool, outcome }), row.id);
  }
}

function outcomeFromResult(tool: ToolCall): ToolRowOutcome | null {
  if (tool.result === undefined) return null;
  if (tool.name === TOOL_NAMES.presentPlan) return tool.result === "approved" ? { kind: "approved" } : { kind: "revise", feedback: tool.result };
  if (tool.name !== TOOL_NAMES.askUserQuestion) return null;
  try {
    const parsed = z.object({ answers: z.array(AnswerItem) }).safeParse(JSON.parse(tool.result));
    return parsed.success ? { kind: "answered", answers: parsed.data.answers } : null;
  } catch {
    return null;
  }
}

/**
 * How every connection to the host's SQLite file runs: in WAL mode, each commit on disk before it returns (FULL; with
 * NORMAL, which better-sqlite3 applies to a file already in WAL mode, a power cut or an OS crash can take back the last
 * commits, and with them answers and messages the host said it took), waiting up to 2 s for another connection's write.
 */
export function tuneFileConnection(db: Database.Database): void {
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("busy_timeout = 2000");
}

/** Creates or migrates the schema of an open database; throws when the file was written by a newer Parley. */
export function prepareSchema(db: Database.Database): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > SCHEMA_VERSION) throw new Error(`it was written by a newer Parley (schema ${version}, this host knows ${SCHEMA_VERSION})`);
  db.transaction(() => {
    db.exec(SCHEMA);
    if (version === 1) {
      for (const statement of MIGRATE_FROM_1) db.exec(statement);
      backfillOutcomes(db);
    }
    // A file older than schema 4 has its sessions table already: SCHEMA did not create it with the column.
    if (version >= 1 && version < 4) db.exec(ADD_REVISION);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
