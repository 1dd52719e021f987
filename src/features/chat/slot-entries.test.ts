import { describe, expect, it } from "vitest";
import { createSessionStore } from "../../store/session-store";
import { initialSessionData, type SessionData } from "../../store/state";
import { createSlotChoiceSelector, defineSlotEntry, chooseSlotEntry, orderSlotEntries, type SlotEntry } from "./slot-entries";

const Nothing = () => null;

function entry(key: string, priority: number, select: SlotEntry["select"]): SlotEntry {
  return defineSlotEntry({ key, priority, select, Component: Nothing });
}

const context = (state: SessionData = initialSessionData) => ({ sessionId: "s-1", state });

describe("chooseSlotEntry", () => {
  it("leaves the slot to the normal composer when no entry selects anything", () => {
    const entries = orderSlotEntries([entry("a", 1, () => null), entry("b", 2, () => null)]);
    expect(chooseSlotEntry(entries, context())).toBeNull();
  });

  it("elects the highest priority entry that selects something", () => {
    const low = entry("low", 1, () => "low match");
    const high = entry("high", 10, () => "high match");
    const silent = entry("silent", 100, () => null);
    expect(chooseSlotEntry(orderSlotEntries([low, silent, high]), context())).toEqual({ entry: high, match: "high match" });
  });

  it("breaks a priority tie by registration order", () => {
    const first = entry("first", 5, () => 1);
    const second = entry("second", 5, () => 2);
    expect(chooseSlotEntry(orderSlotEntries([first, second]), context())?.entry.key).toBe("first");
    expect(chooseSlotEntry(orderSlotEntries([second, first]), context())?.entry.key).toBe("second");
  });

  it("passes the session id and state to select", () => {
    const seen: unknown[] = [];
    const spy = entry("spy", 1, (ctx) => {
      seen.push(ctx);
      return null;
    });
    const state = { ...initialSessionData, hostId: "h" };
    chooseSlotEntry([spy], { sessionId: "s-9", state });
    expect(seen).toEqual([{ sessionId: "s-9", state }]);
  });

  it("treats a falsy but non-null match such as 0 or an empty string as a takeover", () => {
    expect(chooseSlotEntry([entry("zero", 1, () => 0)], context())?.match).toBe(0);
    expect(chooseSlotEntry([entry("empty", 1, () => "")], context())?.match).toBe("");
  });
});

describe("createSlotChoiceSelector", () => {
  const question = entry("question", 10, ({ sessionId, state }) => state.pending[sessionId] ?? null);

  it("returns the same choice object while the winner and its match are unchanged", () => {
    const store = createSessionStore();
    const select = createSlotChoiceSelector([question], "s-1");
    expect(select(store.getState())).toBeNull();
    store.getState().applyFrame({
      type: "question/requested",
      rpcId: "r1",
      sessionId: "s-1",
      questions: [{ id: "q", question: "Why?" }],
      createdAt: "2026-11-30T10:00:00.000Z",
    });
    const first = select(store.getState());
    expect(first?.entry).toBe(question);
    store.getState().applyFrame({ type: "message/delta", sessionId: "s-1", messageId: "m", text: "x" });
    expect(select(store.getState())).toBe(first);
    store.getState().applyFrame({ type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "answered" });
    expect(select(store.getState())).toBeNull();
  });

  it("elects nothing without a session", () => {
    expect(createSlotChoiceSelector([entry("always", 1, () => "x")], null)(initialSessionData)).toBeNull();
  });
});
