import { useEffect, useState, type RefObject } from "react";

/**
 * The height the panel takes while it is a fixed bottom sheet, 0 otherwise, so an in-flow
 * spacer can keep the conversation's last lines and controls from hiding behind it.
 */
export function useSheetHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const measure = () => {
      const fixed = getComputedStyle(element).position === "fixed";
      setHeight(fixed ? Math.ceil(element.getBoundingClientRect().height) : 0);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [ref]);
  return height;
}
