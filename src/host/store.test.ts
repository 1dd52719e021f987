import Database from "better-sqlite3";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STOPPED_TOOL_TEXT } from "./history";
import { DATABASE_FILE, openStore, StoreOpenError, type StoredMessage } from "./store";
import { api, startTestServer } from "./testing/harness";

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-store-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const session = { id: "s1", title: "New chat", autoTitle: true, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };
const running: StoredMessage = {
  id: "m1",
  sessionId: "s1",
  role: "tool",
  createdAt: "2026-01-01T00:00:01.000Z",
  tool: { callId: "call_1", name: "ask_user_question", args: { questions: [] }, status: "running" },
  step: "step-1",
  rawArgs: '{"questions":[]}',
};

describe("store", () => {
  it("creates the data dir and keeps sessions and messages across opens", () => {
    const dataDir = path.join(tempDir(), "nested", "data");
    const first = openStore(dataDir);
    first.insertSession(session);
    first.insertMessage({ id: "u1", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:00.500Z", text: "hi" });
    first.insertMessage(running);
    first.close();
    const second = openStore(dataDir);
    expect(second.listSessions()).toEqual([session]);
    expect(second.listMessages("s1")).toEqual([{ id: "u1", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:00.500Z", text: "hi" }, running]);
    second.close();
  });

  it("deletes a session's messages with the session", () => {
    const store = openStore(":memory:");
    store.insertSession(session);
    store.insertMessage(running);
    expect(store.deleteSession("s1")).toBe(true);
    expect([store.listSessions(), store.listMessages("s1"), store.deleteSession("s1")]).toEqual([[], [], false]);
    store.close();
  });

  it("turns tool rows left running into stopped rows naming ASK_ABORTED when the host starts", async () => {
    const dataDir = tempDir();
    const store = openStore(dataDir);
    store.insertSession(session);
    store.insertMessage(running);
    store.close();
    const server = await startTestServer({ dataDir });
    try {
      const detail = (await api(server.url, "/api/sessions/s1")).body as { messages: unknown[] };
      expect(detail.messages).toEqual([
        {
          id: "m1",
          sessionId: "s1",
          role: "tool",
          createdAt: "2026-01-01T00:00:01.000Z",
          tool: {
            callId: "call_1",
            name: "ask_user_question",
            args: { questions: [] },
            status: "stopped",
            result: STOPPED_TOOL_TEXT,
            error: { name: "UserInteractionError", code: "ASK_ABORTED", message: "ask_user_question was aborted before the user answered" },
          },
        },
      ]);
    } finally {
      await server.close();
    }
  });

  it("refuses a corrupt database file with a StoreOpenError naming the file", () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, DATABASE_FILE), "this is not a database, just some text that is long enough to look like a header".repeat(20));
    expect(() => openStore(dataDir)).toThrow(StoreOpenError);
    expect(() => openStore(dataDir)).toThrow(`cannot use the database at ${path.join(dataDir, DATABASE_FILE)}: file is not a database`);
  });

  it("refuses a database written by a newer schema", () => {
    const dataDir = tempDir();
    const store = openStore(dataDir);
    store.close();
    const raw = new Database(path.join(dataDir, DATABASE_FILE));
    raw.pragma("user_version = 3");
    raw.close();
    expect(() => openStore(dataDir)).toThrow(`cannot use the database at ${path.join(dataDir, DATABASE_FILE)}: it was written by a newer Parley (schema 3, this host knows 2)`);
  });

  it("refuses a data dir that cannot be created with a StoreOpenError", () => {
    const blocker = path.join(tempDir(), "file");
    writeFileSync(blocker, "");
    expect(() => openStore(path.join(blocker, "data"))).toThrow(/^cannot open the database at .*: ENOTDIR/);
  });
});

describe("migration from schema 1", () => {
  it("adds the streaming marks and logins, and gives finished ask and plan rows their outcome as data", () => {
    const dataDir = tempDir();
    const raw = new Database(path.join(dataDir, DATABASE_FILE));
    raw.exec(`
      CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT NOT NULL, auto_title INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
      CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        role TEXT NOT NULL, created_at TEXT NOT NULL, text TEXT, tool TEXT, tool_status TEXT, step TEXT, raw_args TEXT);
      INSERT INTO sessions VALUES ('s', 'Old chat', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    `);
    const insert = raw.prepare("INSERT INTO messages (id, session_id, role, created_at, tool, tool_status) VALUES (?, 's', 'tool', '2026-01-01T00:00:00.000Z', ?, ?)");
    const tool = (name: string, status: string, result?: string) => JSON.stringify({ callId: name, name, args: {}, status, ...(result === undefined ? {} : { result }) });
    insert.run("ask", tool("ask_user_question", "ok", '{"answers":[{"id":"constructor","selected":["Yes"]}]}'), "ok");
    insert.run("approved", tool("present_plan", "ok", "approved"), "ok");
    insert.run("revise", tool("present_plan", "ok", "Split step 2"), "ok");
    insert.run("cancelled", tool("ask_user_question", "error"), "error");
    raw.pragma("user_version = 1");
    raw.close();

    const store = openStore(dataDir);
    expect(store.listMessages("s").map((message) => [message.id, message.tool?.outcome ?? null, message.streaming ?? false, message.interrupted ?? false])).toEqual([
      ["ask", { kind: "answered", answers: [{ id: "constructor", selected: ["Yes"] }] }, false, false],
      ["approved", { kind: "approved" }, false, false],
      ["revise", { kind: "revise", feedback: "Split step 2" }, false, false],
      ["cancelled", null, false, false],
    ]);
    store.insertLogin({ digest: "d", tokenDigest: "t", issuedAt: 1, expiresAt: 2 });
    expect(store.getLogin("d")).toEqual({ digest: "d", tokenDigest: "t", issuedAt: 1, expiresAt: 2 });
    store.close();
  });
});
