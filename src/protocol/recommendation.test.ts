import { describe, expect, it } from "vitest";
import { parseRecommendation } from "./recommendation";

describe("parseRecommendation", () => {
  it("strips an ASCII (Recommended) suffix and flags the label", () => {
    expect(parseRecommendation("pnpm (Recommended)")).toEqual({ display: "pnpm", recommended: true });
  });

  it("accepts any case and no space before the bracket", () => {
    expect(parseRecommendation("Yarn(RECOMMENDED)")).toEqual({ display: "Yarn", recommended: true });
    expect(parseRecommendation("npm (recommended)")).toEqual({ display: "npm", recommended: true });
  });

  it("accepts the Chinese suffix with full-width or ASCII brackets", () => {
    expect(parseRecommendation("使用 pnpm（推荐）")).toEqual({ display: "使用 pnpm", recommended: true });
    expect(parseRecommendation("使用 npm (推荐)")).toEqual({ display: "使用 npm", recommended: true });
    expect(parseRecommendation("Bun （Recommended）")).toEqual({ display: "Bun", recommended: true });
  });

  it("tolerates whitespace inside the brackets and after them", () => {
    expect(parseRecommendation("Deno ( Recommended ) ")).toEqual({ display: "Deno", recommended: true });
  });

  it("leaves labels without the suffix untouched", () => {
    expect(parseRecommendation("Recommended settings")).toEqual({ display: "Recommended settings", recommended: false });
    expect(parseRecommendation("pnpm (fast)")).toEqual({ display: "pnpm (fast)", recommended: false });
    expect(parseRecommendation("pnpm (Recommended) later")).toEqual({ display: "pnpm (Recommended) later", recommended: false });
  });

  it("keeps a label that is only the suffix as it is", () => {
    expect(parseRecommendation("(Recommended)")).toEqual({ display: "(Recommended)", recommended: false });
  });
});
