// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { deleteDraft, loadDraft, saveDraft } from "./draft-storage";

afterEach(() => {
  sessionStorage.clear();
  vi.restoreAllMocks();
});

const state = {
  drafts: { pkg: { selected: ["npm"], custom: "", skipped: false }, name: { selected: [], custom: "", skipped: true } },
  index: 1,
  collapsed: true,
};

describe("draft storage", () => {
  it("saves and loads a draft per rpcId", () => {
    saveDraft("rpc-1", state);
    expect(loadDraft("rpc-1")).toEqual(state);
    expect(loadDraft("rpc-2")).toBeNull();
  });

  it("deletes a draft", () => {
    saveDraft("rpc-1", state);
    saveDraft("rpc-2", state);
    deleteDraft("rpc-1");
    expect(loadDraft("rpc-1")).toBeNull();
    expect(loadDraft("rpc-2")).toEqual(state);
  });

  it("ignores corrupt JSON with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    sessionStorage.setItem("parley.question-draft.rpc-1", "{not json");
    expect(loadDraft("rpc-1")).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("ignores a well-formed value of the wrong shape with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    sessionStorage.setItem("parley.question-draft.rpc-1", JSON.stringify({ drafts: { pkg: { selected: "npm" } }, index: 0, collapsed: false }));
    expect(loadDraft("rpc-1")).toBeNull();
    sessionStorage.setItem("parley.question-draft.rpc-1", JSON.stringify({ drafts: {}, index: -1, collapsed: false }));
    expect(loadDraft("rpc-1")).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
