import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { McpServerHealth } from "../../protocol/schemas";
import { watchMcpStatus } from "./mcp-status";

const ready: McpServerHealth = { name: "notes", state: "ready", tools: 3 };
const failed: McpServerHealth = { name: "web", state: "failed", tools: 0, error: "fetch failed" };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("watchMcpStatus [mcp-health]", () => {
  it("reports the failed servers at once and on each poll, only when they change", async () => {
    const answers = [{ mcp: [ready, failed] }, { mcp: [ready, failed] }, { mcp: [ready, { ...failed, state: "starting" as const }] }, {}];
    const health = vi.fn(() => Promise.resolve(answers.shift() ?? {}));
    const seen: McpServerHealth[][] = [];
    const stop = watchMcpStatus(health, (servers) => seen.push(servers), 1000, 100);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([[failed]]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toEqual([[failed]]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toEqual([[failed], []]);
    expect(health).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(100);
    expect(health).toHaveBeenCalledTimes(4);
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(health).toHaveBeenCalledTimes(4);
  });

  it("asks again soon while a server is still starting", async () => {
    const health = vi.fn(() => Promise.resolve({ mcp: [{ ...failed, state: "starting" as const }] }));
    const stop = watchMcpStatus(health, () => undefined, 1000, 100);
    await vi.advanceTimersByTimeAsync(350);
    expect(health).toHaveBeenCalledTimes(4);
    stop();
  });

  it("reports none while the health request fails", async () => {
    const answers: (() => Promise<{ mcp?: McpServerHealth[] }>)[] = [() => Promise.resolve({ mcp: [failed] }), () => Promise.reject(new Error("offline"))];
    const seen: McpServerHealth[][] = [];
    const stop = watchMcpStatus(() => answers.shift()!(), (servers) => seen.push(servers), 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toEqual([[failed], []]);
    stop();
  });
});
