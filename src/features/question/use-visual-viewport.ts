import { useLayoutEffect, type RefObject } from "react";

/**
 * Mirrors `window.visualViewport` into `--vvh` (its height) and `--vv-bottom` (how far its
 * bottom edge sits above the layout viewport's) on the element, so a bottom sheet can stay
 * above an on-screen keyboard. Set before the panel's first paint and before its first control takes focus (an
 * effect of its child, which brings style and layout up to date), so setting them does not restyle the panel afterwards.
 */
export function useVisualViewport(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const viewport = window.visualViewport;
    const element = ref.current;
    if (!viewport || !element) return;
    const update = () => {
      const hiddenBelow = Math.max(0, window.innerHeight - viewport.height - viewport.offsetTop);
      element.style.setProperty("--vvh", `${viewport.height}px`);
      element.style.setProperty("--vv-bottom", `${hiddenBelow}px`);
    };
    update();
    viewport.addEventListener("resize", update);
    viewport.addEventListener("scroll", update);
    return () => {
      viewport.removeEventListener("resize", update);
      viewport.removeEventListener("scroll", update);
      element.style.removeProperty("--vvh");
      element.style.removeProperty("--vv-bottom");
    };
  }, [ref]);
}
