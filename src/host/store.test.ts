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
