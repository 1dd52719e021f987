import { useMessages } from "../../i18n/i18n";
import { questionMessages } from "./messages";
import { ModelText } from "./model-text";

interface PanelHeaderProps {
  eyebrow: string | undefined;
  position: { index: number; count: number };
  disabled: boolean;
  onCollapse: () => void;
  onDismiss: () => void;
}

/** Eyebrow, request position, and the collapse and dismiss controls. */
export function PanelHeader({ eyebrow, position, disabled, onCollapse, onDismiss }: PanelHeaderProps) {
  const t = useMessages(questionMessages);
  return (
    <div className="question-panel__header">
      <div className="question-panel__eyebrows">
        {eyebrow && (
          <span className="question-panel__eyebrow">
            <ModelText text={eyebrow} />
          </span>
        )}
        {position.count > 1 && (
          <span className="question-panel__request">
            {t("requestPosition", { index: position.index + 1, count: position.count })}
          </span>
        )}
      </div>
      <button
        type="button"
        className="question-panel__icon-button"
        aria-label={t("collapse")}
        aria-expanded={true}
        disabled={disabled}
        onClick={onCollapse}
      >
        <span aria-hidden="true">▾</span>
      </button>
      <button
        type="button"
        className="question-panel__icon-button"
        aria-label={t("dismiss")}
        disabled={disabled}
        onClick={onDismiss}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}
