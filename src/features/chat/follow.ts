/** Distance from the bottom, in pixels, within which the transcript counts as scrolled to the end. */
export const AT_END_PX = 48;
/** How long after a wheel, touch, key or pointer gesture a scroll counts as the user's own, in milliseconds. */
export const GESTURE_WINDOW_MS = 600;

/** What a scroll event means for following the newest content. */
export type ScrollVerdict = "follow" | "detach" | "restick" | "none";

/**
 * Reads one scroll event. At the end it follows again. Away from the end it detaches when the user
 * just scrolled (a gesture) or when the position moved while the layout stayed the same (a scroll
 * bar, find in page, assistive technology); a move that came with a change of the content's or the
 * view's height (a bar appeared, a panel grew, rows got their real size) sticks to the end again.
 */
export function judgeScroll(options: { distanceFromEnd: number; following: boolean; sinceGestureMs: number; layoutChanged: boolean }): ScrollVerdict {
  if (options.distanceFromEnd < AT_END_PX) return options.following ? "none" : "follow";
  if (!options.following) return "none";
  if (options.sinceGestureMs <= GESTURE_WINDOW_MS) return "detach";
  return options.layoutChanged ? "restick" : "detach";
}
