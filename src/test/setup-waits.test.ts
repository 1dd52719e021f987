import { describe, expect, it, vi } from "vitest";

describe("the suite's waits", () => {
  it("give vi.waitFor and expect.poll 10 s by default on a loaded machine, and keep a timeout a wait names", async () => {
    const started = Date.now();
    await vi.waitFor(() => {
      if (Date.now() - started < 1_500) throw new Error("not yet");
    });
    await expect.poll(() => Date.now() - started >= 3_000, { interval: 100 }).toBe(true);
    await expect(vi.waitFor(() => Promise.reject(new Error("never")), { timeout: 200, interval: 50 })).rejects.toThrow("never");
  });
});
