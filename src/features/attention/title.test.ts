import { describe, expect, it } from "vitest";
import { titleWithCount } from "./title";

describe("titleWithCount", () => {
  it("prefixes the number of unseen questions", () => {
    expect(titleWithCount("Parley", 1)).toBe("(1) Parley");
  });

  it("replaces an earlier count instead of stacking another", () => {
    expect(titleWithCount("(1) Parley", 3)).toBe("(3) Parley");
  });

  it("removes the count when nothing is unseen", () => {
    expect(titleWithCount("(2) Release plan · Parley", 0)).toBe("Release plan · Parley");
  });

  it("keeps a title that merely starts with a bracket", () => {
    expect(titleWithCount("(draft) notes", 0)).toBe("(draft) notes");
  });
});
