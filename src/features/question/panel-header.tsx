import type { QuestionOrigin } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { questionCopy } from "./copy";
import { ModelText } from "./model-text";
import { isOutsideAsker, useAskerSentence } from "./asker";
import { IconButton } from "./icon-button";

interface PanelHeaderProps {
  eyebrow: string | undefined;
  /** Who asks, shown when it is not this chat's own agent. */
  origin?: QuestionOrigin | undefined;
  /** False while the arrival notice already names who asks, so it is said once. */
  showsAsker?: boolean;
  position: { index: number; count: number };
  disabled: boolean;
  onCollapse: () => void;
  onDismiss: () => void;
}

/** Eyebrow, who asks when it is not this chat's agent, request position, and the collapse and dismiss controls. */
export function PanelHeader({ eyebrow, origin, showsAsker = true, position, disabled, onCollapse, onDismiss }: PanelHeaderProps) {
  const t = useCopy(questionCopy);
  const say = useAskerSentence();
  return (
    <div className="question-panel__header">
      <div className="question-panel__eyebrows">
        {eyebrow && (
          <span className="question-panel__eyebrow">
            <ModelText text={eyebrow} />
          </span>
        )}
        {showsAsker && isOutsideAsker(origin) && <span className="question-panel__origin">{say("askedBy")}</span>}
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
