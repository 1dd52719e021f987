import { useEffect, useId, useRef, type MouseEvent } from "react";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
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

/** Whether a press or click landed on the dialog itself outside its box: on the dimmed page around it. */
function outsideBox(event: MouseEvent<HTMLDialogElement>): boolean {
  if (event.target !== event.currentTarget) return false;
  const box = event.currentTarget.getBoundingClientRect();
  return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom;
}

/** A modal list of every keyboard shortcut of the chat and the question panel. */
export function KeyboardHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useCopy(keyboardHelpCopy);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const pressedOutside = useRef(false);

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
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="keyboard-help"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={onClose}
      onPointerDown={(event) => (pressedOutside.current = outsideBox(event))}
      onClick={(event) => {
        // A click on the dimmed page around it lands on the dialog itself, outside its box: it closes, as Escape does; a
        // drag that began inside (selecting its text) and ended outside does not.
        if (pressedOutside.current && outsideBox(event)) onClose();
        pressedOutside.current = false;
      }}
    >
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
