import { afterEach, describe, expect, it } from "vitest";
import { loadDraft, saveDraft } from "./draft-storage";
import { forgetResponding, noteResponding, retireDraft, settleResponse } from "./retired-drafts";

const typed = { drafts: new Map([["name", { selected: [], custom: "parley", skipped: false }]]), index: 0, collapsed: false };
const skippedOnly = { drafts: new Map([["name", { selected: [], custom: "", skipped: true }]]), index: 1, collapsed: false };

afterEach(() => sessionStorage.clear());

describe("retireDraft", () => {
  it("keeps typed answers of a request that left for a reason this tab did not cause", () => {
    saveDraft("r1", typed);
    expect(retireDraft("r1", "answered-elsewhere")).toBe(true);
    expect(loadDraft("r1")).toEqual(typed);
  });

  it("deletes the draft when this tab's response was taken, whether its receipt or the request's leaving comes first", () => {
    saveDraft("r1", typed);
    noteResponding("r1");
    // The frame first: nothing is decided until the receipt says whose answer it was.
    expect(retireDraft("r1", "answered-elsewhere")).toBe("after-receipt");
    expect(loadDraft("r1")).toEqual(typed);
    expect([settleResponse("r1", true), loadDraft("r1")]).toEqual([null, null]);

    saveDraft("r2", typed);
    noteResponding("r2");
    expect([settleResponse("r2", true), loadDraft("r2")]).toEqual([null, null]);
    // The panel saved its draft once more before it went: the request's own frame still finds it this tab's doing.
    saveDraft("r2", typed);
    expect([retireDraft("r2", "answered-elsewhere"), loadDraft("r2")]).toEqual([false, null]);
  });

  it("keeps the draft for a notice when the request left while this tab's response was in flight and the response was not taken", () => {
    saveDraft("r1", typed);
    noteResponding("r1");
    expect(retireDraft("r1", "answered-elsewhere")).toBe("after-receipt");
    // Another tab's answer was written first: this tab's receipt says not-pending.
    expect([settleResponse("r1", false), loadDraft("r1")]).toEqual(["answered-elsewhere", typed]);
    // The host shut down under the request: the answer's POST failed.
    saveDraft("r2", typed);
    noteResponding("r2");
    expect(retireDraft("r2", "stopped")).toBe("after-receipt");
    expect(settleResponse("r2", false)).toBe("stopped");
    // Nothing typed: nothing to show.
    saveDraft("r3", skippedOnly);
    noteResponding("r3");
    expect(retireDraft("r3", "stopped")).toBe("after-receipt");
    expect([settleResponse("r3", false), loadDraft("r3")]).toEqual([null, null]);
  });

  it("leaves a request that is still pending to its panel when its response fails", () => {
    saveDraft("r1", typed);
    noteResponding("r1");
    expect([settleResponse("r1", false), loadDraft("r1")]).toEqual([null, typed]);
    expect(retireDraft("r1", "host-restarted")).toBe(true);
  });

  it("keeps the draft again once this tab's response was refused", () => {
    saveDraft("r1", typed);
    noteResponding("r1");
    forgetResponding("r1");
    expect(retireDraft("r1", "host-restarted")).toBe(true);
  });

  it("deletes a draft with nothing typed or chosen, and any draft when there is no reason to tell", () => {
    saveDraft("r1", skippedOnly);
    expect(retireDraft("r1", "answered-elsewhere")).toBe(false);
    expect(loadDraft("r1")).toBeNull();
    saveDraft("r2", typed);
    expect(retireDraft("r2", null)).toBe(false);
    expect(loadDraft("r2")).toBeNull();
    expect(retireDraft("r3", "resolved-away")).toBe(false);
  });
});

describe("a response sent without noting it (an approval card's)", () => {
  it("is not taken as this tab's for a later request of the same id: nothing is kept about it", () => {
    expect(settleResponse("a1", true)).toBeNull();
    saveDraft("a1", typed);
    expect(retireDraft("a1", "answered-elsewhere")).toBe(true);
  });
});
