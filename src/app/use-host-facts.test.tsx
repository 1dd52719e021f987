import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Api } from "../client/api";
import { useHostFacts } from "./use-host-facts";

type Health = Awaited<ReturnType<Api["health"]>>;
const server = (name: string, state: "starting" | "ready" | "failed") => ({ name, state, tools: state === "ready" ? 2 : 0 });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("useHostFacts", () => {
  it("asks again after a failure, then every 2 s while a server starts, and stops once none does", async () => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const answers: (Health | Error)[] = [
      new Error("Failed to fetch"),
      { model: "scripted", mcp: [server("notes", "starting"), server("files", "ready")] } as unknown as Health,
      { model: "scripted", mcp: [server("notes", "ready"), server("files", "ready")] } as unknown as Health,
    ];
    let asked = 0;
    const health = vi.fn(async () => {
      const answer = answers[Math.min(asked++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    });
    const { result } = renderHook(() => useHostFacts(health));
    await act(async () => undefined);
    expect([asked, result.current]).toEqual([1, null]);
    await act(async () => vi.advanceTimersByTimeAsync(2000));
    expect([asked, result.current]).toEqual([2, { model: "scripted", servers: ["files"] }]);
    await act(async () => vi.advanceTimersByTimeAsync(2000));
    expect([asked, result.current]).toEqual([3, { model: "scripted", servers: ["notes", "files"] }]);
    await act(async () => vi.advanceTimersByTimeAsync(60_000));
    expect(asked).toBe(3);
  });

  it("asks again every 30 s while a server has failed, which the host starts again", async () => {
    vi.useFakeTimers();
    const answers = [{ model: "scripted", mcp: [server("notes", "failed")] }, { model: "scripted", mcp: [server("notes", "ready")] }] as unknown as Health[];
    let asked = 0;
    const health = vi.fn(async () => answers[Math.min(asked++, answers.length - 1)]!);
    const { result } = renderHook(() => useHostFacts(health));
    await act(async () => vi.advanceTimersByTimeAsync(29_000));
    expect([asked, result.current]).toEqual([1, { model: "scripted", servers: [] }]);
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect([asked, result.current]).toEqual([2, { model: "scripted", servers: ["notes"] }]);
    await act(async () => vi.advanceTimersByTimeAsync(120_000));
    expect(asked).toBe(2);
  });
});
