import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStreamedText, nextPaint, type DeltaFrame, type HeldFrame, type RowFrame } from "./streamed-text";

const delta = (messageId: string, text: string, sessionId = "s-1"): DeltaFrame => ({ type: "message/delta", sessionId, messageId, text });

function batchWithManualSchedule() {
  const applied: HeldFrame[][] = [];
  const runs: (() => void)[] = [];
  const streamed = createStreamedText((frames) => applied.push(frames), (run) => runs.push(run));
  return { applied, runs, streamed };
}

describe("createStreamedText", () => {
  it("holds pieces until the scheduled paint and applies each message's pieces joined in order, messages in first-arrival order", () => {
    const { applied, runs, streamed } = batchWithManualSchedule();
    streamed.add(delta("m-1", "Hel"));
    streamed.add(delta("m-2", "Other "));
    streamed.add(delta("m-1", "lo"));
    streamed.add(delta("m-2", "reply"));
    expect(applied).toEqual([]);
    expect(runs).toHaveLength(1);
    runs[0]!();
    expect(applied).toEqual([[delta("m-1", "Hello"), delta("m-2", "Other reply")]]);
  });

  it("keeps the same message id of two sessions apart", () => {
    const { applied, runs, streamed } = batchWithManualSchedule();
    streamed.add(delta("m", "a", "s-1"));
    streamed.add(delta("m", "b", "s-2"));
    runs[0]!();
    expect(applied).toEqual([[delta("m", "a", "s-1"), delta("m", "b", "s-2")]]);
  });

  it("applies at once on flush, and the paint scheduled before finds nothing left; the next piece schedules again", () => {
    const { applied, runs, streamed } = batchWithManualSchedule();
    streamed.add(delta("m-1", "one"));
    streamed.flush();
    runs[0]!();
    expect(applied).toEqual([[delta("m-1", "one")]]);
    streamed.add(delta("m-1", " two"));
    expect(runs).toHaveLength(2);
    runs[1]!();
    expect(applied).toEqual([[delta("m-1", "one")], [delta("m-1", " two")]]);
  });
});

describe("createStreamedText with rows", () => {
  const row = (id: string, text: string, role: "assistant" | "tool" = "assistant"): RowFrame => ({
    type: "message/upserted",
    message: { id, sessionId: "s-1", role, createdAt: "2026-12-01T10:00:00.000Z", text },
  });

  it("holds rows with the text and applies them together at the paint, in the order they came", () => {
    const { applied, runs, streamed } = batchWithManualSchedule();
    streamed.add(row("m-1", ""));
    streamed.add(delta("m-1", "Read"));
    streamed.add(row("t-1", "", "tool"));
    streamed.add(delta("m-2", "Done"));
    expect(applied).toEqual([]);
    expect(runs).toHaveLength(1);
    runs[0]!();
    expect(applied).toEqual([[row("m-1", ""), delta("m-1", "Read"), row("t-1", "", "tool"), delta("m-2", "Done")]]);
  });

  it("joins a message's pieces across other rows, but never across a row of that message", () => {
    const { applied, runs, streamed } = batchWithManualSchedule();
    streamed.add(delta("m-1", "a"));
    streamed.add(row("t-1", "", "tool"));
    streamed.add(delta("m-1", "b"));
    streamed.add(row("m-1", "ab!"));
    streamed.add(delta("m-1", "c"));
    streamed.add(delta("m-1", "d"));
    runs[0]!();
    expect(applied).toEqual([[delta("m-1", "ab"), row("t-1", "", "tool"), row("m-1", "ab!"), delta("m-1", "cd")]]);
  });

  it("applies held rows on flush, before whatever comes next", () => {
    const { applied, runs, streamed } = batchWithManualSchedule();
    streamed.add(row("t-1", "", "tool"));
    streamed.flush();
    expect(applied).toEqual([[row("t-1", "", "tool")]]);
    runs[0]!();
    expect(applied).toHaveLength(1);
  });
});

describe("nextPaint", () => {
  /** A page's animation frames, run by hand; a cancelled frame never runs. */
  function stubFrames() {
    const frames = new Map<number, FrameRequestCallback>();
    let next = 1;
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
      frames.set(next, callback);
      return next++;
    });
    vi.stubGlobal("cancelAnimationFrame", (id: number) => frames.delete(id));
    return {
      paint() {
        const due = [...frames.values()];
        frames.clear();
        for (const callback of due) callback(performance.now());
      },
      pending: () => frames.size,
    };
  }

  /** Schedules a run with no frame coming and checks it runs once, at `ms` and not a millisecond before. */
  function scheduledRunsAt(ms: number) {
    const run = vi.fn();
    nextPaint(run);
    vi.advanceTimersByTime(ms - 1);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    return run;
  }

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("runs once at the next frame, and the fallback timer never runs it again", () => {
    const frames = stubFrames();
    const run = vi.fn();
    nextPaint(run);
    expect(run).not.toHaveBeenCalled();
    frames.paint();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("runs once after 100 ms when no frame comes (a hidden tab), and a frame after that never runs it again", () => {
    const frames = stubFrames();
    const run = scheduledRunsAt(100);
    expect(frames.pending()).toBe(0);
    frames.paint();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("applies held text only at frames while a reply streams: a flush's old timer never applies what came after it", () => {
    const frames = stubFrames();
    const applied: HeldFrame[][] = [];
    const streamed = createStreamedText((batch) => applied.push(batch), nextPaint);
    streamed.add(delta("m-1", "a"));
    frames.paint();
    expect(applied).toEqual([[delta("m-1", "a")]]);
    vi.advanceTimersByTime(60);
    streamed.add(delta("m-1", "b"));
    vi.advanceTimersByTime(40);
    expect(applied).toEqual([[delta("m-1", "a")]]);
    frames.paint();
    expect(applied).toEqual([[delta("m-1", "a")], [delta("m-1", "b")]]);
  });

  it("uses a 16 ms timer where there are no animation frames", () => {
    vi.stubGlobal("requestAnimationFrame", undefined);
    scheduledRunsAt(16);
  });
});
