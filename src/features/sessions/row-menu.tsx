import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useCopy } from "../../i18n/i18n";
import { useOutsideDismiss } from "../../ui/use-outside-dismiss";
import { sessionsCopy } from "./copy";

export interface RowMenuItem {
  /** What the item says. */
  label: string;
  /** Its accessible name, naming the chat it acts on. */
  name: string;
  onChoose: () => void;
}

/**
 * A chat row's actions behind one "…" button: a menu that opens on its first item, moves with the
 * arrows, Home and End, and closes on Escape, Tab, or a press or the focus outside; Escape and a choice return
 * focus to the button.
 */
export function RowMenu({ title, items }: { title: string; items: readonly RowMenuItem[] }) {
  const t = useCopy(sessionsCopy);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);
  useOutsideDismiss(open, rootRef, setOpen);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const entries = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => entries[(to + entries.length) % entries.length]?.focus();
    switch (event.key) {
      case "Escape":
        close(true);
        break;
      case "Tab":
        setOpen(false);
        return;
      case "ArrowDown":
        move(at + 1);
        break;
      case "ArrowUp":
        move(at - 1);
        break;
      case "Home":
        move(0);
        break;
      case "End":
        move(entries.length - 1);
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div className="row-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="row-menu__button"
        aria-label={t("chatActions", { title })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((current) => !current)}
      >
        <span aria-hidden="true">…</span>
      </button>
      {open && (
        <div ref={menuRef} id={menuId} role="menu" aria-label={t("chatActions", { title })} className="row-menu__menu" onKeyDown={onMenuKeyDown}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="row-menu__item"
              aria-label={item.name}
              onClick={() => {
                close(true);
                item.onChoose();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
