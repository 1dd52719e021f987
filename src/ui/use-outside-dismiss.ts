import { useEffect, type RefObject } from "react";

/**
 * While `open`, closes (`setOpen(false)`) once a press or the focus lands outside `root`: a menu or popover goes as the
 * user turns elsewhere, by pointer or by keyboard (a question panel taking the focus included).
 */
export function useOutsideDismiss(open: boolean, root: RefObject<HTMLElement | null>, setOpen: (open: boolean) => void): void {
  useEffect(() => {
    if (!open) return;
    const closeIfOutside = (event: Event) => {
      if (!root.current?.contains(event.target as Node | null)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeIfOutside, true);
    document.addEventListener("focusin", closeIfOutside, true);
    return () => {
      document.removeEventListener("pointerdown", closeIfOutside, true);
      document.removeEventListener("focusin", closeIfOutside, true);
    };
  }, [open, root, setOpen]);
}
