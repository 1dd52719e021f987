import { useEffect, useRef, type RefObject } from "react";

const ARROW_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);

/**
 * Whether an arrow key is held. Radix moves a radio group's selection with a synthetic
 * click on focus while an arrow key is down; such a click must not advance the wizard.
 */
export function useArrowKeyPressed(): RefObject<boolean> {
  const pressed = useRef(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (ARROW_KEYS.has(event.key)) pressed.current = true;
    };
    const onKeyUp = () => {
      pressed.current = false;
    };
    document.addEventListener("keydown", onKeyDown, true);
    document.addEventListener("keyup", onKeyUp, true);
    return () => {
      document.removeEventListener("keydown", onKeyDown, true);
      document.removeEventListener("keyup", onKeyUp, true);
    };
  }, []);
  return pressed;
}
