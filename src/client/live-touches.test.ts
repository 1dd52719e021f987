import { describe, expect, it } from "vitest";
import { createLiveTouches } from "./live-touches";

const session = (id: string) => ({ id, title: "t", createdAt: "", updatedAt: "", state: "idle" as const });

describe("createLiveTouches", () => {
  it("reports the sessions and messages frames touched after a mark, and nothing from before it", () => {
    const touches = createLiveTouches();
    touches.record({ type: "session/upserted", session: session("early") });
    const mark = touches.mark();
    touches.record({ type: "session/upserted", session: session("s-1") });
    touches.record({ type: "message/upserted", message: { id: "m-1", sessionId: "s-1", role: "user", createdAt: "", text: "hi" } });
    touches.record({ type: "message/delta", sessionId: "s-1", messageId: "m-2", text: "x" });
    touches.record({ type: "session/deleted", sessionId: "s-gone" });
    touches.record({ type: "synced" });
    expect(touches.since(mark)).toEqual(new Set(["s-1", "m-1", "m-2", "s-gone"]));
  });

  it("counts an id touched before and again after the mark as touched", () => {
    const touches = createLiveTouches();
    touches.record({ type: "session/upserted", session: session("a") });
    const mark = touches.mark();
    expect(touches.since(mark)).toEqual(new Set());
    touches.record({ type: "session/upserted", session: session("a") });
    expect(touches.since(mark)).toEqual(new Set(["a"]));
  });
});
