import { describe, expect, it } from "vitest";
import { DIFF_MAX_EDITS, diffLinesOf } from "./diff-view-renderer";

describe("diffLinesOf", () => {
  it("gives the unified diff's lines with three lines of context", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", ""].join("\n");
    const after = ["a", "b", "c", "D", "e", "f", "g", ""].join("\n");
    expect(diffLinesOf(before, after).lines).toEqual([
      { kind: "hunk", text: "@@ -1,7 +1,7 @@" },
      { kind: "context", text: "a" },
      { kind: "context", text: "b" },
      { kind: "context", text: "c" },
      { kind: "remove", text: "d" },
      { kind: "add", text: "D" },
      { kind: "context", text: "e" },
      { kind: "context", text: "f" },
      { kind: "context", text: "g" },
    ]);
    expect(diffLinesOf(before, after).compared).toBe(true);
    // A new file is all added, and that is its diff.
    expect(diffLinesOf(undefined, "a\nb")).toEqual({ lines: [{ kind: "hunk", text: "@@ -1,0 +1,2 @@" }, { kind: "add", text: "a" }, { kind: "add", text: "b" }], compared: true });
  });

  it("shows the new text as added, without working the diff out, past its bound of edits (a rewritten data file)", () => {
    const lines = DIFF_MAX_EDITS;
    const before = Array.from({ length: lines }, (_, index) => `old ${index}`).join("\n");
    const after = Array.from({ length: lines }, (_, index) => `new ${index}`).join("\n");
    const { lines: shown, compared } = diffLinesOf(before, after);
    expect(compared).toBe(false);
    expect(shown).toHaveLength(lines);
    expect(shown.every((line) => line.kind === "add")).toBe(true);
    expect(shown.slice(0, 2)).toEqual([
      { kind: "add", text: "new 0" },
      { kind: "add", text: "new 1" },
    ]);
  });
});
