/** Distance from the bottom, in pixels, within which the transcript counts as scrolled to the end. */
export const AT_END_PX = 48;
/** How long after a wheel, touch, key or pointer gesture a scroll counts as the user's own, in milliseconds. */
export const GESTURE_WINDOW_MS = 600;

/** What a scroll event means for following the newest content. */
export type ScrollVerdict = "follow" | "detach" | "restick" | "none";

/**
 * Reads one scroll event: at the end it follows again; away from the end it detaches only when the
 * user just scrolled on purpose, and otherwise (the layout moved the content) it sticks to the end again.
 */
export function judgeScroll(options: { distanceFromEnd: number; following: boolean; sinceGestureMs: number }): ScrollVerdict {
  if (options.distanceFromEnd < AT_END_PX) return options.following ? "none" : "follow";
  if (options.sinceGestureMs <= GESTURE_WINDOW_MS) return options.following ? "detach" : "none";
  return options.following ? "restick" : "none";
}
