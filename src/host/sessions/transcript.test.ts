import { describe, expect, it } from "vitest";
import type { DownFrame } from "../../protocol/schemas";
import { openStore, type Store, type StoredMessage, type StoredSession } from "../store";
import { createFaultyStore } from "../../testing/host/faulty-store";
import { StorageError } from "../storage-error";
import { createTranscript } from "./transcript";

const session: StoredSession = { id: "s1", title: "New chat", autoTitle: true, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", revision: 0 };
const version = (status: "running" | "ok" | "error"): StoredMessage => ({
  id: "m1",
  sessionId: "s1",
  role: "tool",
  createdAt: "2026-01-01T00:00:01.000Z",
  tool: { callId: "call_1", name: "run_tests", args: {}, status },
});

async function setUp(store: Store) {
  await store.insertSession(session);
  const frames: DownFrame[] = [];
  const logged: string[] = [];
  const transcript = createTranscript({ store, broadcast: (frame) => frames.push(frame), log: (entry) => logged.push(entry.event) });
  return { transcript, frames, logged };
}

describe("the transcript's writes", () => {
  it("drops a failed version once a newer one is written, so writing again later cannot put the old one back; the newer one is inserted while the row's insert has not landed", async () => {
    const faulty = createFaultyStore(openStore(":memory:"));
    const { transcript, frames } = await setUp(faulty.store);
    faulty.failFrom(0, "STORAGE_BUSY");
    await expect(transcript.record(version("running"), true)).rejects.toMatchObject({ code: "STORAGE_BUSY" });
    expect(transcript.unsettled()).toBe(1);
    faulty.heal();
    await transcript.record(version("error"), false);
    expect(transcript.unsettled()).toBe(0);
    await transcript.close();
    expect(await faulty.store.listMessages("s1")).toEqual([version("error")]);
    expect(frames.map((frame) => frame.type === "message/upserted" && frame.message.tool?.status)).toEqual(["running", "error"]);
  });

  it("writes again the newest version that failed, once storage takes it", async () => {
    const faulty = createFaultyStore(openStore(":memory:"));
    const { transcript, logged } = await setUp(faulty.store);
    await transcript.record(version("running"), true);
    faulty.failFrom(0, "STORAGE_FULL");
    await expect(transcript.record(version("ok"), false)).rejects.toMatchObject({ code: "STORAGE_FULL" });
    await transcript.attempt("message/close-failed", version("error"), false);
    expect([transcript.unsettled(), logged]).toEqual([1, ["message/close-failed"]]);
    faulty.heal();
    await transcript.close();
    expect(await faulty.store.listMessages("s1")).toEqual([version("error")]);
    expect([transcript.unsettled(), logged]).toEqual([0, ["message/close-failed", "message/written-late"]]);
  });

  it("settles a row whose insert landed but whose answer was lost: its next version is written in its place, and later rows still get written", async () => {
    const inner = openStore(":memory:");
    const store = Object.create(inner) as Store;
    let lose = true;
    // The first insert reaches the database, then its answer is lost (a connection reset after the commit).
    store.insertMessage = async (message) => {
      await inner.insertMessage(message);
      if (!lose) return;
      lose = false;
      throw new StorageError("STORAGE_BUSY", "the connection was reset", null);
    };
    const { transcript } = await setUp(store);
    await expect(transcript.record(version("running"), true)).rejects.toMatchObject({ code: "STORAGE_BUSY" });
    await transcript.record(version("error"), false);
    const later: StoredMessage = { id: "m2", sessionId: "s1", role: "assistant", createdAt: "2026-01-01T00:00:02.000Z", text: "after" };
    await transcript.record(later, true);
    expect(transcript.unsettled()).toBe(0);
    expect(await inner.listMessages("s1")).toEqual([version("error"), later]);
    await transcript.close();
  });

  it("lands a row's versions in the order they were made, even when the older one's write answers late", async () => {
    const inner = openStore(":memory:");
    const store = Object.create(inner) as Store;
    // The first update waits before it reaches the database, as a busy pool connection may; later ones go at once.
    let first = true;
    store.updateMessage = async (message) => {
      if (first) {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      return inner.updateMessage(message);
    };
    const { transcript } = await setUp(store);
    await transcript.record(version("running"), true);
    await Promise.all([transcript.record(version("ok"), false), transcript.record(version("error"), false)]);
    expect(await inner.listMessages("s1")).toEqual([version("error")]);
    await transcript.close();
  });

  describe("a deleted chat's rows", () => {
    const other: StoredSession = { ...session, id: "s2" };
    const rowOf = (sessionId: string, id: string): StoredMessage => ({ id, sessionId, role: "assistant", createdAt: "2026-01-01T00:00:02.000Z", text: `in ${sessionId}` });

    async function twoWaitingChats() {
      const faulty = createFaultyStore(openStore(":memory:"));
      const set = await setUp(faulty.store);
      await faulty.store.insertSession(other);
      faulty.failFrom(0, "STORAGE_FULL");
      await expect(set.transcript.record(rowOf("s1", "m1"), true)).rejects.toMatchObject({ code: "STORAGE_FULL" });
      await expect(set.transcript.record(rowOf("s2", "m2"), true)).rejects.toMatchObject({ code: "STORAGE_FULL" });
      faulty.heal();
      return { ...set, faulty };
    }

    it("do not hold back another chat's rows when the chat was deleted elsewhere (another host): they are dropped and the rest are written", async () => {
      const { transcript, faulty, logged } = await twoWaitingChats();
      // Another host's delete: this host's transcript is not told, and the row's insert now breaks the foreign key.
      expect(await Object.getPrototypeOf(faulty.store).deleteSession("s1")).toBe(true);
      await transcript.close();
      expect([transcript.unsettled(), await faulty.store.listMessages("s1"), await faulty.store.listMessages("s2")]).toEqual([0, [], [rowOf("s2", "m2")]]);
      expect(logged).toEqual(["message/dropped-chat-gone", "message/written-late"]);
    });

    it("are forgotten when the chat is deleted here, and the rest are still written", async () => {
      const { transcript, faulty, logged } = await twoWaitingChats();
      expect(await faulty.store.deleteSession("s1")).toBe(true);
      transcript.forget("s1");
      expect(transcript.unsettled()).toBe(1);
      await transcript.close();
      expect([transcript.unsettled(), await faulty.store.listMessages("s2"), logged]).toEqual([0, [rowOf("s2", "m2")], ["message/written-late"]]);
    });

    it("still stop a retry while storage fails for every chat: nothing is dropped", async () => {
      const { transcript, faulty, logged } = await twoWaitingChats();
      faulty.failFrom(0, "STORAGE_BUSY");
      await transcript.close();
      expect([transcript.unsettled(), logged]).toEqual([2, []]);
    });
  });
});
