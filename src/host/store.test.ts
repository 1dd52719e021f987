import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { STOPPED_TOOL_TEXT } from "./sessions/history";
import { redactUrl } from "./pg/errors";
import { PG_SCHEMA_VERSION } from "./pg/migrations";
import { openPgStore } from "./pg/store";
import { openSqlitePushStore } from "./push/push-store";
import { StorageError } from "./storage-error";
import { DATABASE_FILE, openStore, StoreOpenError, type Store, type StoredMessage, type StoredSession } from "./store";
import type { ToolCall } from "../protocol/schemas";
import { api, startTestServer } from "../testing/host/harness";
import { postgresBinDir } from "../testing/host/postgres";
import { useTestPostgres } from "../testing/host/postgres-suite";
import { createTempDirs } from "../testing/host/temp-dirs";

const { make: tempDir, removeAll: removeTempDirs } = createTempDirs("parley-store-");
afterEach(() => {
  removeTempDirs();
});

const session = { id: "s1", title: "New chat", autoTitle: true, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", revision: 0 };
const running: StoredMessage = {
  id: "m1",
  sessionId: "s1",
  role: "tool",
  createdAt: "2026-01-01T00:00:01.000Z",
  tool: { callId: "call_1", name: "ask_user_question", args: { questions: [] }, status: "running" },
  step: "step-1",
  rawArgs: '{"questions":[]}',
};

/** What every Store must do, whichever engine holds the data (docs/architecture.md, Store). */
export function storeContract(name: string, open: () => Promise<Store>) {
  describe(`the ${name} store`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it("keeps sessions and messages in order, and updates them", async () => {
      await store.insertSession(session);
      await store.insertMessage({ id: "u1", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:00.500Z", text: "hi" });
      await store.insertMessage(running);
      const renamed = { ...session, title: "Renamed", autoTitle: false, updatedAt: "2026-01-02T00:00:00.000Z", revision: 1 };
      expect(await store.patchSession("s1", { title: "Renamed", autoTitle: false, updatedAt: "2026-01-02T00:00:00.000Z" })).toEqual(renamed);
      const finished: StoredMessage = { ...running, tool: { ...running.tool!, status: "ok", result: "done" } };
      await store.updateMessage(finished);
      expect([await store.getSession("s1"), await store.getSession("nope"), await store.listMessages("s1")]).toEqual([
        renamed,
        null,
        [{ id: "u1", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:00.500Z", text: "hi" }, finished],
      ]);
    });

    it("takes an insert of a row it already holds (the first insert's answer was lost) as the row's newer version, in its place", async () => {
      await store.insertSession(session);
      await store.insertMessage(running);
      await store.insertMessage({ id: "u2", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:02.000Z", text: "later" });
      const failed: StoredMessage = { ...running, tool: { ...running.tool!, status: "error", error: { name: "HostError", code: "STORAGE_BUSY", message: "lost" } } };
      await store.insertMessage(failed);
      expect(await store.listMessages("s1")).toEqual([failed, { id: "u2", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:02.000Z", text: "later" }]);
    });

    it("patches only the fields it names, only while its condition holds, and returns the row as stored", async () => {
      await store.insertSession(session);
      const stamped = "2026-01-03T00:00:00.000Z";
      // Two writers that read the same row: the stamp does not undo the title, nor the title the stamp.
      const [titled, touched] = await Promise.all([store.patchSession("s1", { title: "Named by the agent" }, { autoTitle: true }), store.patchSession("s1", { updatedAt: stamped })]);
      const both = { ...session, title: "Named by the agent", updatedAt: stamped, revision: 2 };
      expect(await store.getSession("s1")).toEqual(both);
      // Each write counts once, in the order the database took them.
      expect([titled?.title, touched?.updatedAt, [titled?.revision, touched?.revision].sort()]).toEqual(["Named by the agent", stamped, [1, 2]]);
      expect(await store.patchSession("s1", { title: "From the first message" }, { autoTitle: true, title: "New chat" })).toBeNull();
      const renamed = await store.patchSession("s1", { title: "Mine", autoTitle: false });
      expect(renamed).toEqual({ ...both, title: "Mine", autoTitle: false, revision: 3 });
      // A write whose condition failed changed nothing, its revision included; a write of no field still counts.
      expect(await store.patchSession("s1", { title: "Named again" }, { autoTitle: true })).toBeNull();
      expect(await store.patchSession("s1", {})).toEqual({ ...renamed, revision: 4 });
      expect(await store.patchSession("nope", { updatedAt: stamped })).toBeNull();
      expect(await store.getSession("s1")).toEqual({ ...renamed, revision: 4 });
    });

    it("deletes a session's messages, grants and media with the session", async () => {
      await store.insertSession(session);
      await store.insertMessage(running);
      await store.addGrant({ sessionId: "s1", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:02.000Z" });
      await store.putMedia({ id: "img", sessionId: "s1", mimeType: "image/png", data: Buffer.from([1, 2, 3]) });
      expect(await store.deleteSession("s1")).toBe(true);
      expect([await store.listSessions(), await store.listMessages("s1"), await store.listGrants("s1"), await store.getMedia("img"), await store.deleteSession("s1")]).toEqual([[], [], [], null, false]);
    });

    it("pages sessions newest first and finds them by title or message text", async () => {
      const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
      for (const [index, title] of ["Alpha", "Beta 100%", "Gamma"].entries()) await store.insertSession({ id: `s${index}`, title, autoTitle: false, createdAt: at(index), updatedAt: at(index) });
      await store.insertMessage({ id: "m", sessionId: "s0", role: "user", createdAt: at(5), text: "about gamma rays" });
      const ids = (rows: StoredSession[]) => rows.map((row) => row.id);
      expect([
        ids(await store.listSessions()),
        ids(await store.listSessions({ limit: 2 })),
        ids(await store.listSessions({ limit: 2, before: { updatedAt: at(1), id: "s1" } })),
        ids(await store.listSessions({ limit: 5, query: "gamma" })),
        ids(await store.listSessions({ limit: 5, query: "0%" })),
      ]).toEqual([["s2", "s1", "s0"], ["s2", "s1"], ["s0"], ["s2", "s0"], ["s1"]]);
    });

    it("marks rows a dead turn left: streaming replies interrupted, running tools stopped and interrupted", async () => {
      await store.insertSession(session);
      const reply: StoredMessage = { id: "r", sessionId: "s1", role: "assistant", createdAt: "2026-01-01T00:00:02.000Z", text: "half", step: "step-1", streaming: true };
      await store.insertMessage(running);
      await store.insertMessage(reply);
      const error = { name: "UserInteractionError", code: "ASK_ABORTED", message: "aborted" } as const;
      const stopped = (tool: ToolCall): ToolCall => ({ ...tool, status: "stopped", result: "stopped", error });
      expect([await store.stopRunningTools(stopped), await store.interruptStreaming(), await store.interruptStreaming()]).toEqual([1, 1, 0]);
      expect(await store.listMessages("s1")).toEqual([
        { ...running, interrupted: true, tool: { ...running.tool!, status: "stopped", result: "stopped", error } },
        { id: "r", sessionId: "s1", role: "assistant", createdAt: "2026-01-01T00:00:02.000Z", text: "half", step: "step-1", interrupted: true },
      ]);
    });

    it("keeps logins by digest, moves their expiry only from the one it still has, and purges the expired", async () => {
      await store.insertLogin({ digest: "a", tokenDigest: "t", issuedAt: 1, expiresAt: 10 });
      await store.insertLogin({ digest: "b", tokenDigest: "t", issuedAt: 1, expiresAt: 30 });
      expect([await store.moveLoginExpiry("a", 10, 5), await store.moveLoginExpiry("a", 10, 4), await store.moveLoginExpiry("nope", 10, 1)]).toEqual([true, false, false]);
      expect(await store.getLogin("a")).toEqual({ digest: "a", tokenDigest: "t", issuedAt: 1, expiresAt: 5 });
      expect([await store.purgeLogins(5), await store.getLogin("a"), await store.deleteLogin("b"), await store.deleteLogin("b"), await store.getLogin("b")]).toEqual([1, null, true, false, null]);
    });

    it("keeps grants per session, oldest first; granting again moves the time, removing says whether one existed", async () => {
      await store.insertSession(session);
      await store.insertSession({ ...session, id: "s2" });
      await store.addGrant({ sessionId: "s1", server: "files", tool: "write", grantedAt: "2026-01-01T00:00:03.000Z" });
      await store.addGrant({ sessionId: "s1", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:01.000Z" });
      await store.addGrant({ sessionId: "s2", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:01.000Z" });
      await store.addGrant({ sessionId: "s1", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:05.000Z" });
      expect(await store.listGrants("s1")).toEqual([
        { sessionId: "s1", server: "files", tool: "write", grantedAt: "2026-01-01T00:00:03.000Z" },
        { sessionId: "s1", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:05.000Z" },
      ]);
      expect([await store.removeGrant("s1", "files", "write"), await store.removeGrant("s1", "files", "write"), await store.listGrants("s1"), await store.listGrants("s2")]).toEqual([
        true,
        false,
        [{ sessionId: "s1", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:05.000Z" }],
        [{ sessionId: "s2", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:01.000Z" }],
      ]);
    });

    it("keeps media bytes exactly, and refuses media of a session that does not exist", async () => {
      await store.insertSession(session);
      const data = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
      await store.putMedia({ id: "img", sessionId: "s1", mimeType: "image/png", data });
      const media = await store.getMedia("img");
      expect(media && { ...media, data: [...media.data] }).toEqual({ id: "img", sessionId: "s1", mimeType: "image/png", data: [...data] });
      expect(await store.getMedia("missing")).toBeNull();
      await expect(store.putMedia({ id: "orphan", sessionId: "nope", mimeType: "image/png", data })).rejects.toBeInstanceOf(StorageError);
      expect(store.trouble?.code).toBe("STORAGE_FAILED");
      expect(await store.integrityCheck()).toBe("ok");
    });
  });
}

storeContract("SQLite", async () => openStore(":memory:"));

describe("the SQLite store on disk", () => {
  it("puts each commit on disk before it returns (synchronous FULL), on a file already in WAL mode too, as the push tables do", async () => {
    const dataDir = tempDir();
    await openStore(dataDir).close();
    // Every connection a start opens, read as it was left once the store and the push tables are open.
    const original = Database.prototype.pragma;
    const opened = new Set<Database.Database>();
    const pragma = vi.spyOn(Database.prototype, "pragma").mockImplementation(function (this: Database.Database, ...args: Parameters<Database.Database["pragma"]>) {
      opened.add(this);
      return original.apply(this, args);
    });
    try {
      const store = openStore(dataDir);
      const push = openSqlitePushStore(path.join(dataDir, DATABASE_FILE));
      pragma.mockRestore();
      expect([...opened].map((db) => [db.pragma("journal_mode", { simple: true }), db.pragma("synchronous", { simple: true })])).toEqual([
        ["wal", 2],
        ["wal", 2],
      ]);
      await push.close();
      await store.close();
    } finally {
      pragma.mockRestore();
    }
  });

  it("creates the data dir and keeps sessions and messages across opens", async () => {
    const dataDir = path.join(tempDir(), "nested", "data");
    const first = openStore(dataDir);
    await first.insertSession(session);
    await first.insertMessage({ id: "u1", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:00.500Z", text: "hi" });
    await first.insertMessage(running);
    await first.close();
    const second = openStore(dataDir);
    expect(await second.listSessions()).toEqual([session]);
    expect(await second.listMessages("s1")).toEqual([{ id: "u1", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:00.500Z", text: "hi" }, running]);
    await second.close();
  });

  it("turns tool rows left running into stopped, interrupted rows naming ASK_ABORTED when the host starts", async () => {
    const dataDir = tempDir();
    const store = openStore(dataDir);
    await store.insertSession(session);
    await store.insertMessage(running);
    await store.close();
    const server = await startTestServer({ dataDir });
    try {
      const detail = (await api(server.url, "/api/sessions/s1")).body as { messages: unknown[] };
      expect(detail.messages).toEqual([
        {
          id: "m1",
          sessionId: "s1",
          role: "tool",
          createdAt: "2026-01-01T00:00:01.000Z",
          interrupted: true,
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

  it("refuses a database written by a newer schema", async () => {
    const dataDir = tempDir();
    const store = openStore(dataDir);
    await store.close();
    const raw = new Database(path.join(dataDir, DATABASE_FILE));
    raw.pragma("user_version = 5");
    raw.close();
    expect(() => openStore(dataDir)).toThrow(`cannot use the database at ${path.join(dataDir, DATABASE_FILE)}: it was written by a newer Parley (schema 5, this host knows 4)`);
  });

  it("refuses a data dir that cannot be created with a StoreOpenError", () => {
    const blocker = path.join(tempDir(), "file");
    writeFileSync(blocker, "");
    expect(() => openStore(path.join(blocker, "data"))).toThrow(/^cannot open the database at .*: ENOTDIR/);
  });
});

describe("migration from schema 1", () => {
  it("adds the streaming marks and logins, and gives finished ask and plan rows their outcome as data", async () => {
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
    expect((await store.listMessages("s")).map((message) => [message.id, message.tool?.outcome ?? null, message.streaming ?? false, message.interrupted ?? false])).toEqual([
      ["ask", { kind: "answered", answers: [{ id: "constructor", selected: ["Yes"] }] }, false, false],
      ["approved", { kind: "approved" }, false, false],
      ["revise", { kind: "revise", feedback: "Split step 2" }, false, false],
      ["cancelled", null, false, false],
    ]);
    await store.insertLogin({ digest: "d", tokenDigest: "t", issuedAt: 1, expiresAt: 2 });
    expect(await store.getLogin("d")).toEqual({ digest: "d", tokenDigest: "t", issuedAt: 1, expiresAt: 2 });
    await store.close();
  });
});

describe("migration from schema 2", () => {
  it("keeps what schema 2 held and adds grants, media and the sessions' revisions, at version 4", async () => {
    const dataDir = tempDir();
    const raw = new Database(path.join(dataDir, DATABASE_FILE));
    raw.exec(`
      CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT NOT NULL, auto_title INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, agent TEXT);
      CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        role TEXT NOT NULL, created_at TEXT NOT NULL, text TEXT, tool TEXT, tool_status TEXT, step TEXT, raw_args TEXT,
        streaming INTEGER NOT NULL DEFAULT 0, interrupted INTEGER NOT NULL DEFAULT 0, failure TEXT);
      CREATE TABLE logins (digest TEXT PRIMARY KEY, token_digest TEXT NOT NULL, issued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      INSERT INTO sessions VALUES ('s1', 'New chat', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', NULL);
    `);
    raw.pragma("user_version = 2");
    raw.close();

    const store = openStore(dataDir);
    await store.addGrant({ sessionId: "s1", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:01.000Z" });
    expect([await store.listSessions(), await store.listGrants("s1")]).toEqual([[session], [{ sessionId: "s1", server: "files", tool: "read", grantedAt: "2026-01-01T00:00:01.000Z" }]]);
    await store.close();
    const reopened = new Database(path.join(dataDir, DATABASE_FILE));
    expect(reopened.pragma("user_version", { simple: true })).toBe(4);
    reopened.close();
  });
});

describe("migration from schema 3", () => {
  it("gives every session a revision of 0, which each write then counts", async () => {
    const dataDir = tempDir();
    const store = openStore(dataDir);
    await store.insertSession(session);
    await store.close();
    // The file as schema 3 left it: the sessions table without its revision column.
    const raw = new Database(path.join(dataDir, DATABASE_FILE));
    raw.exec("ALTER TABLE sessions DROP COLUMN revision");
    raw.pragma("user_version = 3");
    raw.close();

    const migrated = openStore(dataDir);
    expect(await migrated.getSession("s1")).toEqual(session);
    expect(await migrated.patchSession("s1", { title: "Renamed" })).toEqual({ ...session, title: "Renamed", revision: 1 });
    await migrated.close();
    const reopened = new Database(path.join(dataDir, DATABASE_FILE));
    expect(reopened.pragma("user_version", { simple: true })).toBe(4);
    reopened.close();
  });
});

const postgresBin = postgresBinDir();

describe.skipIf(postgresBin === null)("the Postgres store", () => {
  const postgres = useTestPostgres();

  storeContract("Postgres", async () => openPgStore({ url: await postgres().createDatabase(), instance: "test-host" }));

  it("keeps a text holding U+0000 (which Postgres text cannot) with U+FFFD in its place, finds by it, and counts none of it as storage trouble", async () => {
    const store = await openPgStore({ url: await postgres().createDatabase(), instance: "test-host" });
    try {
      await store.insertSession({ ...session, title: "a\u0000b" });
      await store.insertMessage({ id: "u1", sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:00.500Z", text: "x\u0000y\u0000" });
      const found = await store.listSessions({ limit: 5, query: "\u0000" });
      // A value the column cannot take fails that request alone: the store is not in trouble for it.
      const refused = await store.query("SELECT 'a'::int", [], false).then(() => null, (error: Error) => error.message);
      expect({ title: (await store.getSession("s1"))?.title, text: (await store.listMessages("s1"))[0]?.text, found: found.map((row) => row.id), refused: refused !== null, trouble: store.trouble }).toEqual({
        title: "a\uFFFDb",
        text: "x\uFFFDy\uFFFD",
        found: ["s1"],
        refused: true,
        trouble: null,
      });
    } finally {
      await store.close();
    }
  });

  it("[pg-migrations] migrates once when several hosts open the same new database at once, and all get the one cluster id", async () => {
    const url = await postgres().createDatabase();
    const stores = await Promise.all(Array.from({ length: 6 }, (_, index) => openPgStore({ url, instance: `host-${index}` })));
    const ids = new Set(stores.map((store) => store.clusterId));
    const schema = await stores[0]!.query<{ value: string }>("SELECT value FROM parley_meta WHERE key = 'schema'", [], false);
    await Promise.all(stores.map((store) => store.close()));
    const reopened = await openPgStore({ url, instance: "later" });
    await reopened.close();
    expect([ids.size, [...ids][0] === reopened.clusterId, schema.rows]).toEqual([1, true, [{ value: String(PG_SCHEMA_VERSION) }]]);
  });

  it("[cluster-adopt] leaves the rows of a host still listed, its lease lapsed or not, to its adoption: a start stops only rows no listed host owns", async () => {
    const url = await postgres().createDatabase();
    const [lapsed, gone, starting] = [await openPgStore({ url, instance: "lapsed" }), await openPgStore({ url, instance: "gone" }), await openPgStore({ url, instance: "starting" })];
    await lapsed.insertSession(session);
    const streaming: StoredMessage = { id: "r1", sessionId: "s1", role: "assistant", createdAt: "2026-01-01T00:00:02.000Z", text: "half", streaming: true };
    await lapsed.insertMessage(running);
    await lapsed.insertMessage(streaming);
    const goneRow: StoredMessage = { ...running, id: "m2", tool: { ...running.tool!, callId: "call_2" } };
    await gone.insertMessage(goneRow);
    // The lapsed host's lease ran out a moment ago, after the starting host's adoption pass looked: it is still listed.
    await starting.query("INSERT INTO hosts (instance, url, lease_until) VALUES ('lapsed', 'http://127.0.0.1:1', now() - interval '1 second'), ('starting', 'http://127.0.0.1:2', now() + interval '1 minute')", []);
    expect(await starting.stopRunningTools((tool) => ({ ...tool, status: "stopped" }))).toBe(1);
    expect(await starting.interruptStreaming()).toBe(0);
    const rows = await starting.listMessages("s1");
    expect(rows.map((row) => [row.id, row.tool?.status ?? null, row.streaming ?? false])).toEqual([
      ["m1", "running", false],
      ["r1", null, true],
      ["m2", "stopped", false],
    ]);
    await Promise.all([lapsed.close(), gone.close(), starting.close()]);
  });

  it("[cluster-adopt] keeps a row another host settled (adopted, marked interrupted) when the host that wrote it sends its insert again", async () => {
    const url = await postgres().createDatabase();
    const [lapsed, adopter] = [await openPgStore({ url, instance: "lapsed" }), await openPgStore({ url, instance: "adopter" })];
    await lapsed.insertSession(session);
    await lapsed.insertMessage(running);
    await adopter.query("UPDATE messages SET tool_status = 'stopped', tool = jsonb_set(tool::jsonb, '{status}', '\"stopped\"')::text, interrupted = TRUE WHERE id = $1", [running.id]);
    const late: StoredMessage = { ...running, tool: { ...running.tool!, status: "error", error: { name: "HostError", code: "STORAGE_BUSY", message: "late" } } };
    await lapsed.insertMessage(late);
    expect((await adopter.listMessages("s1")).map((row) => [row.id, row.tool?.status, row.interrupted ?? false])).toEqual([["m1", "stopped", true]]);
    await Promise.all([lapsed.close(), adopter.close()]);
  });

  it("refuses a database written by a newer schema, naming it without its password", async () => {
    const url = await postgres().createDatabase();
    const store = await openPgStore({ url, instance: "a" });
    await store.query("UPDATE parley_meta SET value = $1 WHERE key = 'schema'", [String(PG_SCHEMA_VERSION + 1)]);
    await store.close();
    const withPassword = url.replace("postgres@", "postgres:secret@");
    await expect(openPgStore({ url: withPassword, instance: "b" })).rejects.toThrow(
      new StoreOpenError(`cannot use the database at ${redactUrl(withPassword)}: it was written by a newer Parley (schema ${PG_SCHEMA_VERSION + 1}, this host knows ${PG_SCHEMA_VERSION})`),
    );
    expect(redactUrl(withPassword)).not.toContain("secret");
  });

  it("[store-kind] backs a host given a database URL: health says postgres, and chats and the host id outlive the host", async () => {
    const databaseUrl = await postgres().createDatabase();
    const first = await startTestServer({ databaseUrl });
    const created = await api(first.url, "/api/sessions", { json: { title: "Kept in Postgres" } });
    const health = await api(first.url, "/api/health");
    await first.close();
    const second = await startTestServer({ databaseUrl });
    try {
      const sessions = (await api(second.url, "/api/sessions")).body as { sessions: { id: string; title: string }[] };
      expect([created.status, health.body, second.hostId, sessions.sessions.map((row) => [row.id, row.title])]).toEqual([
        201,
        { ok: true, hostId: first.hostId, protocol: 2, model: "scripted", store: "postgres", storage: { state: "ok" }, cluster: { id: first.hostId, instance: expect.any(String) as string, instances: 1, state: "ok" } },
        first.hostId,
        [[(created.body as { session: { id: string } }).session.id, "Kept in Postgres"]],
      ]);
    } finally {
      await second.close();
    }
  });

  it("reports an unreachable database as STORAGE_BUSY, and recovers when it is back", { timeout: 60_000 }, async () => {
    const store = await openPgStore({ url: await postgres().createDatabase(), instance: "a" });
    try {
      await postgres().stopServer();
      await expect(store.listSessions()).rejects.toMatchObject({ name: "StorageError", code: "STORAGE_BUSY" });
      expect(store.trouble?.code).toBe("STORAGE_BUSY");
      await postgres().startServer();
      expect([await store.listSessions(), store.trouble]).toEqual([[], null]);
    } finally {
      await store.close();
    }
  });
});
