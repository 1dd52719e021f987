import { useCallback, useMemo, useSyncExternalStore } from "react";

/**
 * Whether a CSS media query matches now; re-renders when it changes. False where `matchMedia` is missing. The query's
 * list is made once per query and read on each render (its `matches` is live), not evaluated anew every time.
 */
export function useMediaQuery(query: string): boolean {
  const list = useMemo(() => (typeof window !== "undefined" && typeof window.matchMedia === "function" ? window.matchMedia(query) : null), [query]);
  const subscribe = useCallback(
    (onChange: () => void) => {
      list?.addEventListener("change", onChange);
      return () => list?.removeEventListener("change", onChange);
    },
    [list],
  );
  const read = useCallback(() => list?.matches ?? false, [list]);
  return useSyncExternalStore(subscribe, read, () => false);
}

/** A device whose main pointer is a finger and that cannot hover: phones and tablets, where the keyboard may have no Shift. */
export const TOUCH_QUERY = "(hover: none) and (pointer: coarse)";
