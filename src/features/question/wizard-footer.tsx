import type { ReactNode } from "react";
import { useCopy } from "../../i18n/i18n";
import { questionCopy } from "./copy";
import { StatusLine, type PanelStatus } from "./status-line";
import { pointOf, stepPart, type ChoicePoint } from "./step-keys";
import { IconButton } from "./icon-button";

/** Which kind of step the footer serves. */
export type FooterStep = "question" | "last" | "review";

interface WizardFooterProps {
  step: FooterStep;
  /** The stepper; null for a single question. */
  stepper: ReactNode;
  showPager: boolean;
  index: number;
  count: number;
  status: PanelStatus;
  disabled: boolean;
  submitting: boolean;
  primaryEnabled: boolean;
  /** False on a required question (rule question-required): Skip is disabled. */
  canSkip: boolean;
  /** The step's answer breaks a rule: the pager cannot move on until it is fixed. */
  forwardBlocked: boolean;
  /** On the last question: the primary button opens the review step instead of sending. */
  reviewNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onSkip: () => void;
  /** With where a click was made (null for a key) and whether it was a single click, so a double click moves one step. */
  onPrimary: (point: ChoicePoint, single: boolean) => void;
}

function primaryKey(step: FooterStep, reviewNext: boolean) {
  if (step === "question") return "next";
  if (step === "last" && reviewNext) return "review";
  return "submit";
}

/** Pager with the stepper, status line, skip and the primary Next / Review / Submit button. */
export function WizardFooter(props: WizardFooterProps) {
  const { step, index, count, status, disabled, submitting } = props;
  const t = useCopy(questionCopy);
  const primaryLabel = submitting ? t("submitting") : t(primaryKey(step, props.reviewNext));
  return (
    <div className="composer-card__footer question-panel__footer">
      <StatusLine status={status} />
      {props.showPager && (
        <div className="question-panel__pager" {...stepPart("pager")}>
          <IconButton label={t("previousQuestion")} glyph="‹" disabled={disabled || (step !== "review" && index === 0)} onClick={props.onPrevious} />
          {props.stepper}
          <IconButton
            label={t("nextQuestion")}
            glyph="›"
            disabled={disabled || step !== "question" || index >= count - 1 || props.forwardBlocked}
            onClick={props.onNext}
          />
        </div>
      )}
      <div className="question-panel__footer-row">
        <div className="question-panel__actions">
          {step !== "review" && (
            <button type="button" className="composer-card__button" disabled={disabled || !props.canSkip} onClick={props.onSkip}>
              {t("skip")}
            </button>
          )}
          <button
            type="button"
            className="composer-card__button composer-card__button--primary"
            data-action="primary"
            disabled={disabled || !props.primaryEnabled}
            onClick={(event) => props.onPrimary(pointOf(event), event.detail === 1)}
          >
            {primaryLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
