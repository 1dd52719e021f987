import { useEffect, useRef, useState, type RefObject } from "react";

/** Focuses the step's checked option, else its first control; false when it has none. */
export function focusStep(root: HTMLElement | null): boolean {
  const target =
    root?.querySelector<HTMLElement>('[role="radio"][data-state="checked"]') ??
    root?.querySelector<HTMLElement>('[role="radio"], [role="checkbox"], textarea.question-panel__custom') ??
    root?.querySelector<HTMLElement>(".question-panel__question");
  target?.focus({ preventScroll: true });
  return target !== null && target !== undefined;
}

/**
 * Puts focus on the step's first control: once on mount when `takeFocus` says so, then on
 * each step change while focus is inside the wizard (or was lost to the body), except while
 * the user pages with the pager buttons.
 */
export function useStepFocus(rootRef: RefObject<HTMLElement | null>, index: number, takeFocus: boolean): void {
  const [focusOnMount] = useState(takeFocus);
  const shownIndexRef = useRef<number | null>(null);
  useEffect(() => {
    const shown = shownIndexRef.current;
    shownIndexRef.current = index;
    if (shown === index) return;
    if (shown === null) {
      if (focusOnMount) focusStep(rootRef.current);
      return;
    }
    const active = document.activeElement;
    if (active instanceof HTMLButtonElement && !active.disabled && active.closest(".question-panel__pager")) return;
    if (active === document.body || rootRef.current?.contains(active)) focusStep(rootRef.current);
  }, [rootRef, index, focusOnMount]);
}
