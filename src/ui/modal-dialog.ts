import { useEffect, useRef, type MouseEvent } from "react";

/** Whether a press or click landed on the dialog itself outside its box: on the dimmed page around it. */
function outsideBox(event: MouseEvent<HTMLDialogElement>): boolean {
  if (event.target !== event.currentTarget) return false;
  const box = event.currentTarget.getBoundingClientRect();
  return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom;
}

/**
 * A native `<dialog>` shown as a modal while `open` (an `open` attribute where `showModal` is missing, as in jsdom);
 * `onClosed` runs each time it closes. Spread the returned props on the dialog: a click on the dimmed page around it
 * calls `onDismiss`, as Escape does; a drag that began inside (selecting its text) and ended outside does not.
 */
export function useModalDialog(open: boolean, onDismiss: () => void, onClosed?: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const pressedOutside = useRef(false);
  const closed = useRef(onClosed);
  useEffect(() => {
    closed.current = onClosed;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
    if (!open && dialog.open) {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
      closed.current?.();
    }
  }, [open]);

  return {
    ref,
    onPointerDown: (event: MouseEvent<HTMLDialogElement>) => void (pressedOutside.current = outsideBox(event)),
    onClick: (event: MouseEvent<HTMLDialogElement>) => {
      if (pressedOutside.current && outsideBox(event)) onDismiss();
      pressedOutside.current = false;
    },
  };
}
