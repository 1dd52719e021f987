import type { QuestionOrigin } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { questionCopy } from "./copy";
import { ModelText } from "./model-text";
import { IconButton } from "./icon-button";

interface PanelHeaderProps {
  eyebrow: string | undefined;
  /** Who asks, shown when it is not this chat's own agent. */
  origin?: QuestionOrigin | undefined;
  position: { index: number; count: number };
  disabled: boolean;
  onCollapse: () => void;
  onDismiss: () => void;
}

const NAME_SLOT = "\u0000";

/** The translated line with the asker's name in its place, isolated as model-written text. */
function AskedBy({ text, name }: { text: string; name: string }) {
  const at = text.indexOf(NAME_SLOT);
  return (
    <>
      {text.slice(0, at)}
      <ModelText text={name} />
      {text.slice(at + NAME_SLOT.length)}
    </>
  );
}

/** Eyebrow, who asks when it is not this chat's agent, request position, and the collapse and dismiss controls. */
export function PanelHeader({ eyebrow, origin, position, disabled, onCollapse, onDismiss }: PanelHeaderProps) {
  const t = useCopy(questionCopy);
  return (
    <div className="question-panel__header">
      <div className="question-panel__eyebrows">
        {eyebrow && (
          <span className="question-panel__eyebrow">
            <ModelText text={eyebrow} />
          </span>
        )}
        {origin && origin.kind !== "agent" && (
          <span className="question-panel__origin">
            <AskedBy text={t(origin.kind === "mcp-server" ? "askedByServer" : "askedBy", { name: NAME_SLOT })} name={origin.name} />
          </span>
        )}
        {position.count > 1 && (
          <span className="question-panel__request">
            {t("requestPosition", { index: position.index + 1, count: position.count })}
          </span>
        )}
      </div>
      <IconButton label={t("collapse")} glyph="▾" expanded={true} disabled={disabled} onClick={onCollapse} />
      <IconButton label={t("dismiss")} glyph="✕" action="dismiss" disabled={disabled} onClick={onDismiss} />
    </div>
  );
}
