import { useEffect, useRef, useState } from "react";
import type { AnswerItem } from "../../protocol/schemas";
import { useMessages } from "../../i18n/i18n";
import { Markdown } from "../../ui/markdown";
import { questionMessages } from "./messages";
import type { PlanReview } from "../../protocol/plan-review";
import { StatusLine, type PanelStatus } from "./status-line";

interface PlanReviewCardProps {
  review: PlanReview;
  feedback: string;
  onFeedback: (text: string) => void;
  status: PanelStatus;
  disabled: boolean;
  headingId: string;
  takeFocus: boolean;
  onAnswer: (answers: AnswerItem[]) => void;
  onChat: () => void;
}

/**
 * The decision card for a plan-review request: the plan, then Approve, Keep planning or Chat about it.
 * Its copy is the UI's own, chosen by the intent, not the host's English question text.
 */
export function PlanReviewCard(props: PlanReviewCardProps) {
  const { review, feedback, disabled, headingId } = props;
  const t = useMessages(questionMessages);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [takeFocus] = useState(props.takeFocus);
  const id = review.question.id;

  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, [takeFocus]);

  const refuse = () => {
    if (feedback.trim() !== "") props.onAnswer([{ id, selected: [], custom: feedback }]);
    else if (review.refuseLabel !== null) props.onAnswer([{ id, selected: [review.refuseLabel] }]);
  };

  return (
    <div className="question-panel__wizard">
      <div className="question-panel__body">
        <h2 id={headingId} className="question-panel__question" tabIndex={-1} ref={headingRef}>
          {t("planQuestion")}
        </h2>
        <Markdown text={review.plan} className="question-panel__detail question-panel__plan" />
      </div>
      {review.refuseLabel !== null && (
        <div className="question-panel__custom-row">
          <textarea
            className="question-panel__custom"
            aria-label={t("customLabel")}
            placeholder={t("planFeedbackPlaceholder")}
            rows={2}
            value={feedback}
            disabled={disabled}
            onChange={(event) => props.onFeedback(event.target.value)}
          />
        </div>
      )}
      <div className="question-panel__footer">
        <StatusLine status={props.status} />
        <div className="question-panel__footer-row">
          <button type="button" className="question-panel__button" disabled={disabled} onClick={props.onChat}>
            {t("chatAboutIt")}
          </button>
          <div className="question-panel__actions">
            {review.refuseLabel !== null && (
              <button type="button" className="question-panel__button" disabled={disabled} onClick={refuse}>
                {t("refuse")}
              </button>
            )}
            <button
              type="button"
              className="question-panel__button question-panel__button--primary"
              disabled={disabled}
              onClick={() => props.onAnswer([{ id, selected: [review.approveLabel] }])}
            >
              {t("approve")}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
