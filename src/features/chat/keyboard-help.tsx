import { useId } from "react";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { useModalDialog } from "../../ui/modal-dialog";
import { keyboardHelpCopy, type KeyboardHelpKey } from "./keyboard-help-copy";

/** One shortcut: the keys as printed, and what they do. */
interface Shortcut {
  keys: readonly string[];
  does: KeyboardHelpKey;
}

const CHAT_SHORTCUTS: readonly Shortcut[] = [
  { keys: ["Enter"], does: "keySend" },
  { keys: ["Shift", "Enter"], does: "keyNewLine" },
  { keys: ["Esc"], does: "keyStop" },
  { keys: ["/"], does: "keyCommands" },
  { keys: ["?"], does: "keyHelp" },
];

/** The question panel's keys (src/features/question: option list, wizard, custom answer, panel). */
const PANEL_SHORTCUTS: readonly Shortcut[] = [
  { keys: ["Alt", "Q"], does: "keyFocusPanel" },
  { keys: ["1", "…", "9"], does: "keyPickNumber" },
  { keys: ["↑", "↓", "←", "→"], does: "keyMoveOption" },
  { keys: ["Home", "End"], does: "keyFirstLast" },
  { keys: ["Enter"], does: "keyNextQuestion" },
  { keys: ["Shift", "Enter"], does: "keyCustomNewLine" },
  { keys: ["Esc"], does: "keyFoldPanel" },
];

function ShortcutList({ title, shortcuts }: { title: string; shortcuts: readonly Shortcut[] }) {
  const t = useCopy(keyboardHelpCopy);
  const id = useId();
  return (
    <section aria-labelledby={id} className="keyboard-help__section">
      <h3 id={id}>{title}</h3>
      <dl>
        {shortcuts.map((shortcut) => (
          <div key={`${shortcut.keys.join("+")}-${shortcut.does}`} className="keyboard-help__row">
            <dt>
              {shortcut.keys.map((key, index) => (
                <kbd key={index}>{key}</kbd>
              ))}
            </dt>
            <dd>{t(shortcut.does)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A modal list of every keyboard shortcut of the chat and the question panel. */
export function KeyboardHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useCopy(keyboardHelpCopy);
  const titleId = useId();
  const dialog = useModalDialog(open, onClose);

  return (
    <dialog {...dialog} className="keyboard-help" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      <div className="keyboard-help__head">
        <h2 id={titleId}>{t("shortcutsTitle")}</h2>
        <Button variant="ghost" onClick={onClose}>
          {t("close")}
        </Button>
      </div>
      <ShortcutList title={t("shortcutsChat")} shortcuts={CHAT_SHORTCUTS} />
      <ShortcutList title={t("shortcutsPanel")} shortcuts={PANEL_SHORTCUTS} />
    </dialog>
  );
}
