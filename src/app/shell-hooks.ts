import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from "react";
import { loadApprovalCards } from "../features/approval/approval-entry";
import { createImeGuard } from "../ui/ime";
import { preloadInlineEdit } from "../ui/lazy-inline-edit";
import { isTypingTarget } from "../ui/typing-target";
import { loadQuestionPanel } from "./question-entry";

/** The question panel's and the approval cards' code load lazily, this long after start-up, so the first request shows without a wait. */
const PANEL_PRELOAD_DELAY_MS = 1000;

/** Starts loading the question panel's, the approval cards' and the title editor's code once the app has settled. */
export function usePanelPreload(): void {
  useEffect(() => {
    const timer = setTimeout(() => {
      loadQuestionPanel().catch((error: unknown) => console.warn("could not preload the question panel", error));
      loadApprovalCards().catch((error: unknown) => console.warn("could not preload the approval cards", error));
      preloadInlineEdit().catch((error: unknown) => console.warn("could not preload the title editor", error));
    }, PANEL_PRELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
}

/** Whether the keyboard help is open; `?` outside a text field opens it. */
export function useHelpShortcut(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || isTypingTarget(event.target)) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
  return [open, setOpen];
}

/**
 * The sessions drawer of narrow screens: open or closed; Escape inside the shell, the backdrop and the
 * drawer's Close button close it. Opening focuses Close; closing returns focus to the toggle.
 */
export function useDrawer(toggleRef: RefObject<HTMLButtonElement | null>, closeRef: RefObject<HTMLButtonElement | null>) {
  const [open, setOpenState] = useState(false);
  const shown = useRef(false);
  /** The shell's compositions: the Escape that closes an IME's candidates (in the drawer's search, say) is the IME's. */
  const [imeGuard] = useState(createImeGuard);
  useEffect(() => {
    if (shown.current === open) return;
    shown.current = open;
    if (open) closeRef.current?.focus();
    else if (document.activeElement === document.body || closeRef.current?.closest("nav")?.contains(document.activeElement)) toggleRef.current?.focus();
  }, [open, toggleRef, closeRef]);
  return {
    open,
    setOpen: setOpenState,
    onKeyDown(event: ReactKeyboardEvent) {
      // An Escape something inside used (the search clearing itself, a rename cancelled) is not the drawer's.
      if (event.key !== "Escape" || !open || event.defaultPrevented || imeGuard.isImeEscape(event.nativeEvent)) return;
      event.preventDefault();
      setOpenState(false);
    },
    onCompositionStart: imeGuard.onCompositionStart,
    onCompositionEnd: imeGuard.onCompositionEnd,
  };
}
