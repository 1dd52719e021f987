import { describe, expect, it } from "vitest";
import { svgDataUrl, svgWithDot } from "./favicon";

describe("favicon dot", () => {
  it("draws the dot after the icon's own shapes so it sits on top", () => {
    expect(svgWithDot('<svg viewBox="0 0 32 32"><rect width="32" height="32"/></svg>')).toBe(
      '<svg viewBox="0 0 32 32"><rect width="32" height="32"/><circle cx="25" cy="7" r="6.5" fill="#d92d20" stroke="#ffffff" stroke-width="2"/></svg>',
    );
  });

  it("refuses an icon that is not SVG", () => {
    expect(() => svgWithDot("GIF89a")).toThrow("the favicon is not an SVG document");
  });

  it("encodes the icon as a data URL", () => {
    expect(svgDataUrl('<svg a="#1"></svg>')).toBe("data:image/svg+xml,%3Csvg%20a%3D%22%231%22%3E%3C%2Fsvg%3E");
  });
});
