import { afterEach, describe, expect, it } from "vitest";
import { loadDraft, saveDraft } from "./draft-storage";
import { forgetResponding, noteResponding, retireDraft } from "./retired-drafts";

const typed = { drafts: new Map([["name", { selected: [], custom: "parley", skipped: false }]]), index: 0, collapsed: false };
const skippedOnly = { drafts: new Map([["name", { selected: [], custom: "", skipped: true }]]), index: 1, collapsed: false };

afterEach(() => sessionStorage.clear());

describe("retireDraft", () => {
  it("keeps typed answers of a request that left for a reason this tab did not cause", () => {
    saveDraft("r1", typed);
    expect(retireDraft("r1", "answered-elsewhere")).toBe(true);
    expect(loadDraft("r1")).toEqual(typed);
  });

  it("deletes the draft when this tab sent the response itself", () => {
    saveDraft("r1", typed);
    noteResponding("r1");
    expect(retireDraft("r1", "answered-elsewhere")).toBe(false);
    expect(loadDraft("r1")).toBeNull();
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
