import { describe, expect, it } from "vitest";
import { selectComposerPrefill } from "./selectors";
import { createSessionStore } from "./session-store";

describe("composer prefill", () => {
  it("holds the text handed to a session's composer until the composer takes it", () => {
    const store = createSessionStore();
    expect(selectComposerPrefill(store.getState())).toBeNull();
    store.getState().prefillComposer("s-1", "Why step 2?");
    const prefill = selectComposerPrefill(store.getState());
    expect(prefill).toEqual({ sessionId: "s-1", text: "Why step 2?" });
    store.getState().clearComposerPrefill(prefill!);
    expect(selectComposerPrefill(store.getState())).toBeNull();
  });

  it("keeps a newer prefill when an older one is reported taken", () => {
    const store = createSessionStore();
    store.getState().prefillComposer("s-1", "first");
    const older = selectComposerPrefill(store.getState())!;
    store.getState().prefillComposer("s-1", "second");
    store.getState().clearComposerPrefill(older);
    expect(selectComposerPrefill(store.getState())).toEqual({ sessionId: "s-1", text: "second" });
  });
});
