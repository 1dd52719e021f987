import { describe, expect, it } from "vitest";
import { detectLocale, format } from "./locale";

describe("format", () => {
  it("fills placeholders from the values' own entries and leaves the others visible", () => {
    expect(format("{count} of {max}", { count: 3, max: 5 })).toBe("3 of 5");
    expect(format("{missing} and {constructor} and {toString}", { count: 1 })).toBe("{missing} and {constructor} and {toString}");
  });
});

describe("detectLocale", () => {
  it("prefers a remembered locale, then the browser's languages, then English", () => {
    expect(detectLocale(["en-US"], "zh-CN")).toBe("zh-CN");
    expect(detectLocale(["fr", "zh-TW"], null)).toBe("zh-CN");
    expect(detectLocale(["fr"], "constructor")).toBe("en");
  });
});
