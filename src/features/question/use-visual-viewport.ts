import { useLayoutEffect, type RefObject } from "react";

/** The visual viewport as last measured: its height, and how far its bottom edge sits above the layout viewport's. */
interface ViewportBox {
  height: number;
  hiddenBelow: number;
}

let watched: { viewport: VisualViewport; stop(): void } | null = null;
let box: ViewportBox | null = null;
const sheets = new Set<HTMLElement>();

function apply(element: HTMLElement, { height, hiddenBelow }: ViewportBox) {
  element.style.setProperty("--vvh", `${height}px`);
  element.style.setProperty("--vv-bottom", `${hiddenBelow}px`);
}

function measure(viewport: VisualViewport) {
  box = { height: viewport.height, hiddenBelow: Math.max(0, window.innerHeight - viewport.height - viewport.offsetTop) };
  for (const sheet of sheets) apply(sheet, box);
}

/**
 * Follows `window.visualViewport` from now on (once per viewport object), measuring it on each of its `resize` and
 * `scroll` events, and returns it; null where there is none. Reading its size brings layout up to date, so it is read
 * here and at those events, never when a sheet mounts: a question's panel then shows without a layout of the whole page
 * before its first paint. The question panel's code calls this as it loads.
 */
export function watchVisualViewport(): VisualViewport | null {
  const viewport = typeof window === "undefined" ? null : (window.visualViewport ?? null);
  if (viewport === null || watched?.viewport === viewport) return viewport;
  watched?.stop();
  const onChange = () => measure(viewport);
  viewport.addEventListener("resize", onChange);
  viewport.addEventListener("scroll", onChange);
  watched = {
    viewport,
    stop() {
      viewport.removeEventListener("resize", onChange);
      viewport.removeEventListener("scroll", onChange);
    },
  };
  measure(viewport);
  return viewport;
}

/**
 * Mirrors the visual viewport into `--vvh` (its height) and `--vv-bottom` (how far its bottom edge sits above the layout
 * viewport's) on the element while it is mounted, so a bottom sheet can stay above an on-screen keyboard. Set before the
 * panel's first paint from the last measure (see `watchVisualViewport`), and again at each change of the viewport.
 */
export function useVisualViewport(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || watchVisualViewport() === null || box === null) return;
    sheets.add(element);
    apply(element, box);
    return () => {
      sheets.delete(element);
      element.style.removeProperty("--vvh");
      element.style.removeProperty("--vv-bottom");
    };
  }, [ref]);
}
