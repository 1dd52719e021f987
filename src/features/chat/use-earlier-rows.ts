import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from "react";

/**
 * How many of the oldest rows wait unrendered: all but the newest `step` at first, `step` fewer per
 * `reveal`. Revealing keeps the rows in view where they were, as the new ones appear above them.
 */
export function useEarlierRows(scrollRef: RefObject<HTMLElement | null>, total: number, step: number) {
  const [windowRows, setWindowRows] = useState(step);
  const restoreRef = useRef<{ height: number; top: number } | null>(null);

  const reveal = useCallback(() => {
    const element = scrollRef.current;
    if (element) restoreRef.current = { height: element.scrollHeight, top: element.scrollTop };
    setWindowRows((rows) => rows + step);
  }, [scrollRef, step]);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const restore = restoreRef.current;
    if (!restore) return;
    restoreRef.current = null;
    element.scrollTop = restore.top + (element.scrollHeight - restore.height);
  }, [scrollRef, windowRows]);

  return { hidden: Math.max(0, total - windowRows), reveal };
}
