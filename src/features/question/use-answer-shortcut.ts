import { useEffect, useRef } from "react";

/** Alt+Q (Option+Q on a Mac) turns to the question panel from anywhere on the page. */
export function isAnswerShortcut(event: Pick<KeyboardEvent, "altKey" | "ctrlKey" | "metaKey" | "shiftKey" | "code" | "isComposing">): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === "KeyQ" && !event.isComposing;
}

/** Calls `onShortcut` on Alt+Q / Option+Q anywhere in the document while the panel is mounted. */
export function useAnswerShortcut(onShortcut: () => void): void {
  const latest = useRef(onShortcut);
  useEffect(() => {
    latest.current = onShortcut;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isAnswerShortcut(event)) return;
      event.preventDefault();
      latest.current();
    };
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, []);
}
