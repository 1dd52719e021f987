import { describe, expect, it } from "vitest";
import type { StoredMessage } from "../store";
import { createCoalescingWriter } from "./acp-rows";

const row = (id: string, text: string): StoredMessage => ({ id, sessionId: "s", role: "tool", createdAt: "2026-12-01T10:00:00.000Z", text });

/** A report whose writes finish only when the test says, in any order it likes. */
function heldReport() {
  const writes: { id: string; text: string; insert: boolean; done: () => void }[] = [];
  const finished: string[] = [];
  const report = {
    write: (written: StoredMessage, insert: boolean) =>
      new Promise<void>((resolve) => {
        writes.push({ id: written.id, text: written.text ?? "", insert, done: () => (finished.push(`${insert ? "insert" : "update"} ${written.id}`), resolve()) });
      }),
  };
  return { report, writes, finished };
}

const unexpectedFailure = (row: StoredMessage, error: unknown) => {
  throw new Error(`the write of ${row.id} failed: ${String(error)}`);
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createCoalescingWriter", () => {
  it("inserts a new row only after the rows inserted before it, so a slow first insert cannot let the second land first", async () => {
    const { report, writes, finished } = heldReport();
    const writer = createCoalescingWriter(report, unexpectedFailure);
    void writer.write(row("edit", "Edit"), true);
    void writer.write(row("run", "npm test"), true);
    await settle();
    expect(writes.map((write) => write.id)).toEqual(["edit"]);
    writes[0]!.done();
    await settle();
    expect(writes.map((write) => write.id)).toEqual(["edit", "run"]);
    writes[1]!.done();
    await writer.flush();
    expect(finished).toEqual(["insert edit", "insert run"]);
  });

  it("writes only a row's newest version while one is in flight, and updates do not wait for other rows' inserts", async () => {
    const { report, writes } = heldReport();
    const writer = createCoalescingWriter(report, unexpectedFailure);
    void writer.write(row("a", "a1"), true);
    void writer.write(row("a", "a2"), false);
    void writer.write(row("a", "a3"), false);
    await settle();
    writes[0]!.done();
    await settle();
    expect(writes.map((write) => [write.id, write.text, write.insert])).toEqual([
      ["a", "a1", true],
      ["a", "a3", false],
    ]);
    void writer.write(row("b", "b1"), true);
    void writer.write(row("a", "a4"), false);
    await settle();
    // a's update is held only by a's own write in flight; b's insert went out beside it.
    expect(writes.map((write) => write.text)).toEqual(["a1", "a3", "b1"]);
    writes[1]!.done();
    await settle();
    expect(writes.map((write) => write.text)).toEqual(["a1", "a3", "b1", "a4"]);
    for (const write of writes.slice(2)) write.done();
    await writer.flush();
  });

  it("goes on after a failed write: the failure is reported, the row's next version and other rows are still written, and flush ends", async () => {
    const attempts: string[] = [];
    const failures: string[] = [];
    const full = new Error("STORAGE_FULL");
    const report = {
      write: async (written: StoredMessage, insert: boolean) => {
        attempts.push(`${insert ? "insert" : "update"} ${written.text}`);
        if (written.text === "a1" || written.text === "b1") throw full;
      },
    };
    const writer = createCoalescingWriter(report, (written, error) => failures.push(`${written.text}: ${(error as Error).message}`));
    const first = writer.write(row("a", "a1"), true);
    void writer.write(row("a", "a2"), false);
    void writer.write(row("b", "b1"), true);
    void writer.write(row("c", "c1"), true);
    await expect(first).resolves.toBeUndefined();
    await writer.flush();
    expect(attempts).toEqual(["insert a1", "update a2", "insert b1", "insert c1"]);
    expect(failures).toEqual(["a1: STORAGE_FULL", "b1: STORAGE_FULL"]);
    await writer.write(row("a", "a3"), false);
    expect(attempts.at(-1)).toBe("update a3");
  });
});
