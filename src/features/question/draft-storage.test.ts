// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { deleteDraft, flushDrafts, loadDraft, saveDraft, saveDraftSoon } from "./draft-storage";

afterEach(() => {
  flushDrafts();
  vi.useRealTimers();
  sessionStorage.clear();
  vi.restoreAllMocks();
});

const state = {
  drafts: new Map([
    ["pkg", { selected: ["npm"], custom: "", skipped: false }],
    ["name", { selected: [], custom: "", skipped: true }],
  ]),
  index: 1,
  collapsed: true,
};
const savedState = {
  drafts: [
    ["pkg", { selected: ["npm"], custom: "", skipped: false }],
    ["name", { selected: [], custom: "", skipped: true }],
  ],
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

  it("writes a draft saved soon after the delay, keeping only the latest state", () => {
    vi.useFakeTimers();
    saveDraftSoon("rpc-1", { ...state, index: 0 });
    saveDraftSoon("rpc-1", state);
    expect(sessionStorage.getItem("parley.question-draft.rpc-1")).toBeNull();
    expect(loadDraft("rpc-1")).toEqual(state);
    vi.runAllTimers();
    expect(JSON.parse(sessionStorage.getItem("parley.question-draft.rpc-1") ?? "null")).toEqual(savedState);
  });

  it("writes a draft saved soon at once when the page is hidden or unloaded", () => {
    saveDraftSoon("rpc-1", state);
    window.dispatchEvent(new Event("pagehide"));
    expect(JSON.parse(sessionStorage.getItem("parley.question-draft.rpc-1") ?? "null")).toEqual(savedState);
  });

  it("never writes a pending draft back after it is deleted", () => {
    saveDraftSoon("rpc-1", state);
    deleteDraft("rpc-1");
    flushDrafts();
    expect(sessionStorage.getItem("parley.question-draft.rpc-1")).toBeNull();
    expect(loadDraft("rpc-1")).toBeNull();
  });

  it("round-trips drafts whose question ids name Object.prototype members", () => {
    const hostile = {
      drafts: new Map([
        ["__proto__", { selected: ["Yes"], custom: "", skipped: false }],
        ["constructor", { selected: [], custom: "a cat", skipped: false }],
        ["toString", { selected: [], custom: "", skipped: true }],
        ["hasOwnProperty", { selected: ["No"], custom: "", skipped: false }],
      ]),
      index: 2,
      collapsed: false,
    };
    saveDraft("rpc-1", hostile);
    expect(loadDraft("rpc-1")).toEqual(hostile);
    expect(Object.prototype).not.toHaveProperty("selected");
  });

  it("reads the older object format by its own entries, __proto__ included", () => {
    sessionStorage.setItem(
      "parley.question-draft.rpc-1",
      '{"drafts":{"__proto__":{"selected":["Yes"],"custom":"","skipped":false},"constructor":{"selected":[],"custom":"x","skipped":false}},"index":0,"collapsed":false}',
    );
    expect(loadDraft("rpc-1")).toEqual({
      drafts: new Map([
        ["__proto__", { selected: ["Yes"], custom: "", skipped: false }],
        ["constructor", { selected: [], custom: "x", skipped: false }],
      ]),
      index: 0,
      collapsed: false,
    });
    expect(Object.prototype).not.toHaveProperty("selected");
  });

  it("ignores saved pairs that are not [id, draft] with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    sessionStorage.setItem("parley.question-draft.rpc-1", JSON.stringify({ drafts: [["pkg"]], index: 0, collapsed: false }));
    expect(loadDraft("rpc-1")).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
