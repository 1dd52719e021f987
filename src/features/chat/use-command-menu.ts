import { useId, useState, type KeyboardEvent, type RefObject } from "react";
import type { ImeGuard } from "../../ui/ime";
import { completeCommand, matchCommands, type ComposerCommand } from "./commands";

export interface CommandMenuOptions {
  /** What the box holds: a `/` and the start of a command name opens the menu. */
  text: string;
  commands: readonly ComposerCommand[];
  imeGuard: ImeGuard;
  /** Replaces the box's text, as typing would: a chosen command is written out in full. */
  update: (text: string) => void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
}

/**
 * The composer's `/` menu: the commands that match what is typed, which one is active, and the
 * keys that drive it. Escape closes it until the text changes; focus leaving the box for elsewhere in the page (a click
 * outside) closes it until the text changes or the box is focused again.
 */
export function useCommandMenu({ text, commands, imeGuard, update, inputRef }: CommandMenuOptions) {
  const menuId = useId();
  /** The text the menu was closed at, and how: Escape keeps it closed until the text changes; a blur, until the box is focused again. */
  const [closed, setClosed] = useState<{ text: string; by: "escape" | "blur" } | null>(null);
  const [activeCommand, setActiveCommand] = useState(0);

  const offered = closed?.text === text ? [] : matchCommands(text, commands);
  const active = Math.min(activeCommand, Math.max(offered.length - 1, 0));
  const optionId = (index: number) => `${menuId}-${index}`;
  const choose = (command: ComposerCommand) => {
    update(completeCommand(command));
    setActiveCommand(0);
    inputRef.current?.focus();
  };

  /** The `/` menu's keys: arrows move, Enter or Tab completes, Escape closes it for what is typed. */
  const onMenuKey = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (offered.length === 0 || imeGuard.isImeKey(event.nativeEvent) || (event.key === "Escape" && imeGuard.isImeEscape(event.nativeEvent))) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActiveCommand((active + step + offered.length) % offered.length);
    } else if ((event.key === "Enter" && !event.shiftKey) || (event.key === "Tab" && !event.shiftKey)) {
      choose(offered[active]!);
    } else if (event.key === "Escape") {
      setClosed({ text, by: "escape" });
    } else return false;
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  /** Focus left the box: for another part of the page, the menu closes; for another window, it stays for the return. */
  const onMenuBlur = () => {
    if (offered.length > 0 && document.hasFocus()) setClosed({ text, by: "blur" });
  };
  const onMenuFocus = () => {
    if (closed?.by === "blur") setClosed(null);
  };

  return { menuId, offered, active, optionId, choose, onMenuKey, onMenuBlur, onMenuFocus };
}
