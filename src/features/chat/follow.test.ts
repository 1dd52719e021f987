import { describe, expect, it } from "vitest";
import { AT_END_PX, GESTURE_WINDOW_MS, judgeScroll } from "./follow";

const away = { distanceFromEnd: 500, following: true, sinceGestureMs: Infinity, layoutChanged: false };

describe("judgeScroll", () => {
  it("follows again once the user reaches the end", () => {
    expect(judgeScroll({ ...away, distanceFromEnd: AT_END_PX - 1, following: false })).toBe("follow");
    expect(judgeScroll({ ...away, distanceFromEnd: 0 })).toBe("none");
  });

  it("detaches for a scroll right after the user's own gesture, even while the layout changes", () => {
    expect(judgeScroll({ ...away, sinceGestureMs: 20, layoutChanged: true })).toBe("detach");
    expect(judgeScroll({ ...away, sinceGestureMs: GESTURE_WINDOW_MS })).toBe("detach");
  });

  it("detaches for a move without a gesture when the layout stayed the same (scroll bar, find in page)", () => {
    expect(judgeScroll(away)).toBe("detach");
  });

  it("sticks to the end again when the move came with a change of height (a bar appeared, a panel grew)", () => {
    expect(judgeScroll({ ...away, distanceFromEnd: 80, layoutChanged: true })).toBe("restick");
    expect(judgeScroll({ ...away, sinceGestureMs: GESTURE_WINDOW_MS + 1, layoutChanged: true })).toBe("restick");
  });

  it("leaves a detached transcript where the user put it", () => {
    expect(judgeScroll({ ...away, following: false })).toBe("none");
    expect(judgeScroll({ ...away, following: false, sinceGestureMs: 5, layoutChanged: true })).toBe("none");
  });
});
