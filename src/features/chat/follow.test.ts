import { describe, expect, it } from "vitest";
import { AT_END_PX, GESTURE_WINDOW_MS, judgeScroll } from "./follow";

describe("judgeScroll", () => {
  it("follows again once the user reaches the end", () => {
    expect(judgeScroll({ distanceFromEnd: AT_END_PX - 1, following: false, sinceGestureMs: 10 })).toBe("follow");
    expect(judgeScroll({ distanceFromEnd: 0, following: true, sinceGestureMs: Infinity })).toBe("none");
  });

  it("detaches only for a scroll right after the user's own gesture", () => {
    expect(judgeScroll({ distanceFromEnd: 500, following: true, sinceGestureMs: 20 })).toBe("detach");
    expect(judgeScroll({ distanceFromEnd: 500, following: true, sinceGestureMs: GESTURE_WINDOW_MS })).toBe("detach");
  });

  it("sticks to the end again when the layout moved the content without a gesture (a bar appeared, a panel grew)", () => {
    expect(judgeScroll({ distanceFromEnd: 80, following: true, sinceGestureMs: GESTURE_WINDOW_MS + 1 })).toBe("restick");
    expect(judgeScroll({ distanceFromEnd: 80, following: true, sinceGestureMs: Infinity })).toBe("restick");
  });

  it("leaves a detached transcript where the user put it", () => {
    expect(judgeScroll({ distanceFromEnd: 800, following: false, sinceGestureMs: Infinity })).toBe("none");
    expect(judgeScroll({ distanceFromEnd: 800, following: false, sinceGestureMs: 5 })).toBe("none");
  });
});
