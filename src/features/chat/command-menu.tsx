import { useEffect } from "react";
import { useCopy } from "../../i18n/i18n";
import { chatCopy } from "./copy";
import type { ComposerCommand } from "./commands";

export interface CommandMenuProps {
  id: string;
  commands: readonly ComposerCommand[];
  active: number;
  /** The id of option `index`, for the text box's aria-activedescendant. */
  optionId: (index: number) => string;
  onChoose: (command: ComposerCommand) => void;
}

/** The `/` menu above the composer: each command with its arguments and what it does, and how to use the menu by keyboard. */
export function CommandMenu({ id, commands, active, optionId, onChoose }: CommandMenuProps) {
  const t = useCopy(chatCopy);
  // The list scrolls (40% of the window at most): the chosen command stays in view as the arrows move it.
  const activeId = optionId(active);
  useEffect(() => {
    document.getElementById(activeId)?.scrollIntoView?.({ block: "nearest" });
  }, [activeId]);
  return (
    <div className="command-menu">
      <ul id={id} role="listbox" aria-label={t("commandMenuLabel")} className="command-menu__list">
        {commands.map((command, index) => (
          <li
            key={command.name}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className="command-menu__option"
            // Keeps focus in the text box: the choice is made on the press, never by moving focus.
            onPointerDown={(event) => event.preventDefault()}
            onClick={() => onChoose(command)}
          >
            <span className="command-menu__name" dir="ltr">
              {command.name} <span className="command-menu__usage">{command.usage}</span>
            </span>
            <span className="command-menu__description" dir="auto">
              {command.description}
            </span>
          </li>
        ))}
      </ul>
      <p className="command-menu__help">{t("commandMenuHelp")}</p>
    </div>
  );
}
