import { describe, expect, it } from "vitest";
import { createStreamedText, type DeltaFrame } from "./streamed-text";

const delta = (messageId: string, text: string, sessionId = "s-1"): DeltaFrame => ({ type: "message/delta", sessionId, messageId, text });

function batchWithManualSchedule() {
  const applied: DeltaFrame[][] = [];
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
