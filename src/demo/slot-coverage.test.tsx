import { describe, expect, it } from "vitest";
import { createSlotEntries } from "../app/question-entry";
import { chooseSlotEntry, orderSlotEntries } from "../features/chat/slot-entries";
import { createSessionStore } from "../store/session-store";
import { DEMO_SESSION_ID, SLOT_STORIES, type SlotStory } from "./stories";

const entries = createSlotEntries({
  respond: async () => ({ accepted: true }),
  stopTurn: async () => undefined,
  moveToComposer: () => undefined,
  dismissRetired: () => undefined,
});

/** The slot entry that owns the composer slot once the story has reached its state, as the app elects it. */
function ownerOf(story: SlotStory): string | null {
  const store = createSessionStore();
  for (const request of story.requests) store.getState().applyFrame({ type: "question/requested", ...request });
  if (story.retired) {
    const first = story.requests[0]!;
    store.getState().applyFrame({ type: "question/resolved", rpcId: first.rpcId, sessionId: first.sessionId, outcome: "aborted" });
    store.getState().retireRequests([{ request: first, reason: story.retired }]);
  }
  return chooseSlotEntry(orderSlotEntries(entries), { sessionId: DEMO_SESSION_ID, state: store.getState() })?.entry.key ?? null;
}

describe("demo coverage of the composer slot", () => {
  it("has a story for every entry the app registers in the composer slot", () => {
    const owners = new Set(SLOT_STORIES.map(ownerOf));
    for (const entry of entries) expect(owners.has(entry.key), `a story whose slot is owned by "${entry.key}"`).toBe(true);
  });

  it("shows every story in the slot: none leaves the plain composer", () => {
    for (const story of SLOT_STORIES) expect(ownerOf(story), story.id).not.toBeNull();
  });
});
