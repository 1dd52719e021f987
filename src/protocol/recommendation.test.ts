import { describe, expect, it } from "vitest";
import { parseRecommendation } from "./recommendation";

describe("parseRecommendation", () => {
  it.each([
    ["an ASCII suffix", "pnpm (Recommended)", "pnpm"],
    ["any case with no space before the bracket", "Yarn(RECOMMENDED)", "Yarn"],
    ["a lower-case suffix", "npm (recommended)", "npm"],
    ["the Chinese suffix in full-width brackets", "使用 pnpm（推荐）", "使用 pnpm"],
    ["the Chinese suffix in ASCII brackets", "使用 npm (推荐)", "使用 npm"],
    ["the English suffix in full-width brackets", "Bun （Recommended）", "Bun"],
    ["whitespace inside the brackets and after them", "Deno ( Recommended ) ", "Deno"],
  ])("strips %s and flags the label: %j", (_case, label, display) => {
    expect(parseRecommendation(label)).toEqual({ display, recommended: true });
  });

  it.each([
    ["the word without brackets", "Recommended settings"],
    ["another bracketed word", "pnpm (fast)"],
    ["the suffix followed by more text", "pnpm (Recommended) later"],
    ["a label that is only the suffix", "(Recommended)"],
  ])("leaves a label with %s untouched: %j", (_case, label) => {
    expect(parseRecommendation(label)).toEqual({ display: label, recommended: false });
  });
});
