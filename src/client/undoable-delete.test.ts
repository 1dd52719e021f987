import { describe, expect, it } from "vitest";
import { manualTimers } from "./testing/manual-timers";
import { createUndoableDeletes } from "./undoable-delete";

function setup(fail: string | null = null) {
  const clock = manualTimers();
  const removed: string[] = [];
  const hiddenSets: string[][] = [];
  const errors: [string, string][] = [];
  const deletes = createUndoableDeletes({
    remove: async (sessionId) => {
      removed.push(sessionId);
      if (fail === sessionId) throw new Error("host said no");
    },
    onChange: (hidden) => hiddenSets.push([...hidden]),
    onError: (sessionId, error) => errors.push([sessionId, (error as Error).message]),
    timers: clock.timers,
  });
  return { clock, removed, hiddenSets, errors, deletes };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createUndoableDeletes", () => {
  it("hides at once and deletes on the host only when the undo window has passed", async () => {
    const { clock, removed, hiddenSets, deletes } = setup();
    deletes.request("a");
    expect(hiddenSets).toEqual([["a"]]);
    expect(removed).toEqual([]);
    clock.fireAll();
    await settle();
    expect(removed).toEqual(["a"]);
    expect(hiddenSets).toEqual([["a"], []]);
  });

  it("brings a session back on undo and never deletes it", async () => {
    const { clock, removed, hiddenSets, deletes } = setup();
    deletes.request("a");
    expect(deletes.undo("a")).toBe(true);
    clock.fireAll();
    await settle();
    expect(removed).toEqual([]);
    expect(hiddenSets).toEqual([["a"], []]);
    expect(deletes.undo("a")).toBe(false);
  });

  it("shows the session again and reports the error when the host refuses", async () => {
    const { clock, hiddenSets, errors, deletes } = setup("a");
    deletes.request("a");
    clock.fireAll();
    await settle();
    expect(hiddenSets).toEqual([["a"], []]);
    expect(errors).toEqual([["a", "host said no"]]);
  });

  it("deletes everything still waiting when flushed, and a key named like a prototype member is an ordinary id", async () => {
    const { clock, removed, deletes } = setup();
    deletes.request("__proto__");
    deletes.request("constructor");
    expect(deletes.pending()).toEqual(["__proto__", "constructor"]);
    deletes.flush();
    await settle();
    expect(removed).toEqual(["__proto__", "constructor"]);
    expect(clock.pending.size).toBe(0);
    expect(deletes.pending()).toEqual([]);
  });
});
