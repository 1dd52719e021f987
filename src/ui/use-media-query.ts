import { useCallback, useSyncExternalStore } from "react";

/** Whether a CSS media query matches now; re-renders when it changes. False where `matchMedia` is missing. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === "undefined" || typeof window.matchMedia !== "function") return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  const read = useCallback(() => typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(query).matches, [query]);
  return useSyncExternalStore(subscribe, read, () => false);
}

/** A device whose main pointer is a finger and that cannot hover: phones and tablets, where the keyboard may have no Shift. */
export const TOUCH_QUERY = "(hover: none) and (pointer: coarse)";
