import { afterEach, describe, expect, it } from "vitest";
import type { Model } from "../models/types";
import { openStore, type Store, type StoredSession } from "../store";
import { api, createSession, createTestHosts } from "../../testing/host/harness";
import { sessionOfFrame } from "./service";
import { perSession, sessionWrites } from "./session-writes";

const session: StoredSession = { id: "s1", title: "New chat", autoTitle: true, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", revision: 0 };

/** A store whose stamp-only writes take effect at once but answer late, as a busy connection to a shared database may. */
function slowStamps(inner: Store): Store {
  const store = Object.create(inner) as Store;
  store.patchSession = async (id, patch, when) => {
    const row = await inner.patchSession(id, patch, when);
    if (patch.title === undefined) await new Promise((resolve) => setTimeout(resolve, 30));
    return row;
  };
  return store;
}

describe("a session's writes", () => {
  it("publish in the order they were stored, so the last frame holds every write: a turn's end does not undo the agent's title", async () => {
    const store = slowStamps(openStore(":memory:"));
    await store.insertSession(session);
    const published: StoredSession[] = [];
    const { write, touch } = sessionWrites(store, (row) => published.push(row), () => undefined);
    // The turn ends (its stamp is stored first) while the agent's title comes in.
    await Promise.all([touch("s1"), write("s1", { title: "Named by the agent" }, { autoTitle: true })]);
    const stored = await store.getSession("s1");
    expect(stored?.title).toBe("Named by the agent");
    expect(stored?.updatedAt).not.toBe(session.updatedAt);
    expect(published.map((row) => [row.title, row.revision])).toEqual([["New chat", 1], ["Named by the agent", 2]]);
    expect(published.at(-1)).toEqual(stored);
    await store.close();
  });

  it("publishes the row as stored when a write's condition no longer holds, and nothing for a session that is gone", async () => {
    const store = openStore(":memory:");
    await store.insertSession(session);
    const published: StoredSession[] = [];
    const { write, touch } = sessionWrites(store, (row) => published.push(row), () => undefined);
    expect(await write("s1", { title: "Mine", autoTitle: false })).toEqual({ ...session, title: "Mine", autoTitle: false, revision: 1 });
    expect(await write("s1", { title: "The agent's" }, { autoTitle: true })).toBeNull();
    await touch("gone");
    expect(published).toEqual([{ ...session, title: "Mine", autoTitle: false, revision: 1 }]);
    await store.close();
  });

  it("publishes the stored row when a stamp fails, and rethrows the failure", async () => {
    const inner = openStore(":memory:");
    await inner.insertSession(session);
    const store = Object.create(inner) as Store;
    const failure = new Error("the disk is full");
    store.patchSession = () => Promise.reject(failure);
    const published: StoredSession[] = [];
    const { touch } = sessionWrites(store, (row) => published.push(row), () => undefined);
    await expect(touch("s1")).rejects.toBe(failure);
    expect(published).toEqual([session]);
    await inner.close();
  });
});

const hosts = createTestHosts();
afterEach(() => hosts.closeAll());

describe("a chat renamed while it is deleted", () => {
  it("gets its rename's frame before session/deleted, and none after it, however late the rename's write answers", async () => {
    // Here the rename is the slow write: it is stored at once and answers late.
    const inner = openStore(":memory:");
    const store = Object.create(inner) as Store;
    let renameStored!: () => void;
    const stored = new Promise<void>((resolve) => (renameStored = resolve));
    store.patchSession = async (id, patch, when) => {
      const row = await inner.patchSession(id, patch, when);
      if (patch.title !== undefined) {
        renameStored();
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      return row;
    };
    const { server, client } = await hosts.startSynced({ store });
    const sessionId = await createSession(server.url);
    const from = client.frames.length;
    const renaming = api(server.url, `/api/sessions/${sessionId}`, { method: "PATCH", json: { title: "Renamed" } });
    await stored;
    const [renamed, deleted] = await Promise.all([renaming, api(server.url, `/api/sessions/${sessionId}`, { method: "DELETE" })]);
    expect([renamed.status, deleted.status]).toEqual([200, 204]);
    await client.waitFor((frame, index) => index >= from && frame.type === "session/deleted");
    // Anything the host sends after the delete: a frame it would have sent late is in by the time a fresh socket syncs.
    await hosts.open(server.url);
    const frames = client.frames.slice(from).filter((frame) => (frame.type === "session/upserted" && frame.session.id === sessionId) || frame.type === "session/deleted");
    expect(frames.map((frame) => (frame.type === "session/upserted" ? `upserted ${frame.session.title}` : frame.type))).toEqual(["upserted Renamed", "session/deleted"]);
  });
});

describe("a chat deleted while a message is posted to it", () => {
  it("has no turn left running once the delete is answered, though the post's write was queued first and started one, and no frame of it follows session/deleted", async () => {
    const inner = openStore(":memory:");
    const store = Object.create(inner) as Store;
    const signals: AbortSignal[] = [];
    let modelCalled!: () => void;
    const called = new Promise<void>((resolve) => (modelCalled = resolve));
    // The turn's model starts a reply, then waits until its turn is aborted.
    const model: Model = {
      name: "waiting",
      async *step(request) {
        signals.push(request.signal);
        // A reply begun: the turn's end, when it is stopped, closes its row.
        yield { type: "text", delta: "Thinking" };
        modelCalled();
        await new Promise<void>((resolve) => (request.signal.aborted ? resolve() : request.signal.addEventListener("abort", () => resolve())));
      },
    };
    // The post's stamp is stored, then answers only once the delete has read the chat and run its first abort (which
    // finds no turn yet): the delete is queued behind the post, whose turn starts first.
    let deleteRead!: () => void;
    const readByDelete = new Promise<void>((resolve) => (deleteRead = resolve));
    let armed = false;
    let stampStored!: () => void;
    const stamped = new Promise<void>((resolve) => (stampStored = resolve));
    store.patchSession = async (id, patch, when) => {
      const row = await inner.patchSession(id, patch, when);
      if (patch.title === undefined) {
        armed = true;
        stampStored();
        await readByDelete;
      }
      return row;
    };
    store.getSession = async (id) => {
      const row = await inner.getSession(id);
      // The first read after the stamp is the delete's: released after every promise job it sets off, its first abort
      // and its place in the chat's queue.
      if (armed) setImmediate(deleteRead);
      return row;
    };
    // The chat's row goes only once the post's turn reached its model.
    store.deleteSession = async (id) => {
      await called;
      return inner.deleteSession(id);
    };
    const { server, client } = await hosts.startSynced({ store, model });
    const sessionId = await createSession(server.url);
    await inner.patchSession(sessionId, { title: "Named", autoTitle: false });
    const posting = api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "hello" } });
    await stamped;
    const deleting = api(server.url, `/api/sessions/${sessionId}`, { method: "DELETE" });
    const [posted, deleted] = await Promise.all([posting, deleting]);
    expect([posted.status, deleted.status, signals.map((signal) => signal.aborted)]).toEqual([202, 204, [true]]);
    // Anything the stopped turn sent is in by the time a fresh socket syncs.
    await hosts.open(server.url);
    const gone = client.frames.findIndex((frame) => frame.type === "session/deleted" && frame.sessionId === sessionId);
    expect([gone >= 0, client.frames.slice(gone + 1).filter((frame) => sessionOfFrame(frame) === sessionId)]).toEqual([true, []]);
  });
});

describe("perSession", () => {
  it("runs one key's jobs one at a time in order, past a failed one, and other keys' alongside", async () => {
    const inOrder = perSession();
    const events: string[] = [];
    const job = (name: string, ms: number, fail = false) => async () => {
      events.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      events.push(`${name} end`);
      if (fail) throw new Error(name);
      return name;
    };
    const a1 = inOrder("a", job("a1", 20, true));
    const a2 = inOrder("a", job("a2", 0));
    const b1 = inOrder("b", job("b1", 0));
    await expect(a1).rejects.toThrow("a1");
    expect(await Promise.all([a2, b1])).toEqual(["a2", "b1"]);
    expect(events.indexOf("a2 start")).toBeGreaterThan(events.indexOf("a1 end"));
    expect(events.indexOf("b1 end")).toBeLessThan(events.indexOf("a1 end"));
  });
});
