import { describe, expect, it } from "vitest";
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffDelay } from "./backoff";

describe("backoffDelay", () => {
  it("returns zero when the jitter draws zero", () => {
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(backoffDelay(7, () => 0)).toBe(0);
  });

  it("doubles the ceiling with each failed attempt, starting at the base", () => {
    const nearlyOne = () => 0.999999;
    expect(backoffDelay(0, nearlyOne)).toBe(BACKOFF_BASE_MS - 1);
    expect(backoffDelay(1, nearlyOne)).toBe(2 * BACKOFF_BASE_MS - 1);
    expect(backoffDelay(2, nearlyOne)).toBe(4 * BACKOFF_BASE_MS - 1);
    expect(backoffDelay(4, nearlyOne)).toBe(16 * BACKOFF_BASE_MS - 1);
  });

  it("never exceeds the cap however many attempts failed", () => {
    const nearlyOne = () => 0.999999;
    expect(backoffDelay(5, nearlyOne)).toBe(BACKOFF_CAP_MS - 1);
    expect(backoffDelay(60, nearlyOne)).toBe(BACKOFF_CAP_MS - 1);
    expect(backoffDelay(5000, nearlyOne)).toBe(BACKOFF_CAP_MS - 1);
  });

  it("spreads delays uniformly over the whole window (full jitter)", () => {
    expect(backoffDelay(3, () => 0.5)).toBe(2000);
    expect(backoffDelay(3, () => 0.25)).toBe(1000);
    expect(backoffDelay(20, () => 0.5)).toBe(5000);
  });

  it("stays inside [0, ceiling) for every attempt and draw", () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
      for (const draw of [0, 0.1, 0.5, 0.9, 0.9999]) {
        const delay = backoffDelay(attempt, () => draw);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    }
  });
});
