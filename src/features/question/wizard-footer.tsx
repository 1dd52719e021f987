import { useMessages } from "../../i18n/i18n";
import { questionMessages } from "./messages";
import { StatusLine, type PanelStatus } from "./status-line";

interface WizardFooterProps {
  index: number;
  count: number;
  status: PanelStatus;
  disabled: boolean;
  submitting: boolean;
  primaryEnabled: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onSkip: () => void;
  onPrimary: () => void;
}

/** Pager, status line, skip and the primary Next / Submit button. */
export function WizardFooter(props: WizardFooterProps) {
  const { index, count, status, disabled, submitting } = props;
  const t = useMessages(questionMessages);
  const isLast = index === count - 1;
  const primaryLabel = submitting ? t("submitting") : isLast ? t("submit") : t("next");
  return (
    <div className="question-panel__footer">
      <StatusLine status={status} />
      <div className="question-panel__footer-row">
        <div className="question-panel__pager">
          <button
            type="button"
            className="question-panel__icon-button"
            aria-label={t("previousQuestion")}
            disabled={disabled || index === 0}
            onClick={props.onPrevious}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <span className="question-panel__progress">{t("progress", { index: index + 1, count })}</span>
          <button
            type="button"
            className="question-panel__icon-button"
            aria-label={t("nextQuestion")}
            disabled={disabled || isLast}
            onClick={props.onNext}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
        <div className="question-panel__actions">
          <button type="button" className="question-panel__button" disabled={disabled} onClick={props.onSkip}>
            {t("skip")}
          </button>
          <button
            type="button"
            className="question-panel__button question-panel__button--primary"
            disabled={disabled || !props.primaryEnabled}
            onClick={props.onPrimary}
          >
            {primaryLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
