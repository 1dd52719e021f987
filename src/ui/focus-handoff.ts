import { useCallback, type RefCallback, type RefObject } from "react";

/**
 * A ref for a control that goes away once used, such as `Stop` or `Retry now`: if it held keyboard focus when it went,
 * `handOff` runs once it is gone and focus is on no element, so the next key lands somewhere useful instead of on
 * `<body>`. A control focused by a pointer hands nothing off: focusing a text box on a phone would open its keyboard.
 * `ref`, when given, follows the element as a ref object would.
 */
export function useFocusHandoff<T extends HTMLElement>(handOff: (() => void) | undefined, ref?: RefObject<T | null>): RefCallback<T> {
  return useCallback(
    (node: T) => {
      if (ref) ref.current = node;
      return () => {
        if (ref) ref.current = null;
        if (!handOff || !node.matches(":focus-visible")) return;
        queueMicrotask(() => {
          if (document.activeElement === null || document.activeElement === document.body) handOff();
        });
      };
    },
    [handOff, ref],
  );
}
