import { describe, expect, it } from "vitest";
import { clipLabel, plainLabel } from "./plain-label";

describe("plainLabel", () => {
  it("drops bidi controls and collapses whitespace to one line", () => {
    expect(plainLabel("  pay \u202Eevil\u202C\n\tnow \u2066x\u2069 ")).toBe("pay evil now x");
    expect(plainLabel("\u200E\u200F\u061C")).toBe("");
  });
});

describe("clipLabel", () => {
  it("keeps a label within its bound and cuts a longer one to its first characters and an ellipsis", () => {
    expect(clipLabel("abc", 3)).toBe("abc");
    expect(clipLabel("abcd", 3)).toBe("ab…");
    expect(clipLabel(" a\u202E b\n", 3)).toBe("a b");
    // No space before the ellipsis, and no astral character cut in half.
    expect(clipLabel("ab cd", 4)).toBe("ab…");
    expect(clipLabel("😀😀😀😀", 3)).toBe("😀😀…");
    expect(clipLabel("\u202E", 3)).toBe("");
  });
});
