import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import type { AnswerItem } from "../../protocol/schemas";
import { useFocusHandoff } from "../../ui/focus-handoff";
import { planReviewAnswers, type PlanReview } from "../../protocol/plan-review";
import { useCopy } from "../../i18n/i18n";
import { Markdown } from "../../ui/markdown";
import { questionCopy } from "./copy";
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
  /** Chat about it: ends the request and hands the typed note to the composer. */
  onChat: (note: string) => void;
}

/** Pixels of plan still hidden under the body's fold below which the plan counts as read to its end. */
const READ_TO_END_PX = 4;

/** Whether the scrolling element has more below its visible part; follows scrolling and resizing. */
function useMoreBelow(ref: RefObject<HTMLElement | null>): boolean {
  const [more, setMore] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setMore(element.scrollHeight - element.scrollTop - element.clientHeight > READ_TO_END_PX);
    measure();
    element.addEventListener("scroll", measure, { passive: true });
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    observer?.observe(element);
    for (const child of Array.from(element.children)) observer?.observe(child);
    return () => {
      element.removeEventListener("scroll", measure);
      observer?.disconnect();
    };
  }, [ref]);
  return more;
}

/**
 * The decision card for a plan-review request: the plan, an optional note, then Approve, Keep
 * planning or Chat about it. The note goes with either decision as the note question's answer.
 * Its copy is the UI's own, chosen by the intent, not the host's English question text. The plan
 * shows its hidden characters as markers and wraps its code, so the whole plan is read before it is approved.
 */
export function PlanReviewCard(props: PlanReviewCardProps) {
  const { review, feedback, disabled, headingId } = props;
  const t = useCopy(questionCopy);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const moreBelow = useMoreBelow(bodyRef);
  const [takeFocus] = useState(props.takeFocus);

  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, [takeFocus]);

  // The button goes once the plan's end is in view; the keyboard's focus on it then moves to the plan, not to the page's body.
  const keepFocusInPlan = useFocusHandoff<HTMLButtonElement>(useCallback(() => bodyRef.current?.focus({ preventScroll: true }), []));
  const noteId = `${headingId}-note`;
  const { refuseLabel } = review;

  return (
    <div className="question-panel__wizard">
      {/* Focusable so a keyboard can scroll a plan longer than the card. */}
      <div className="question-panel__body" ref={bodyRef} data-more-below={moreBelow} tabIndex={0} role="group" aria-labelledby={headingId}>
        <h2 id={headingId} className="question-panel__question" tabIndex={-1} ref={headingRef}>
          {t("planQuestion")}
        </h2>
        <Markdown text={review.plan} className="question-panel__detail question-panel__plan" wrap />
      </div>
      {moreBelow && (
        <button
          type="button"
          className="question-panel__more-below"
          ref={keepFocusInPlan}
          onClick={() => bodyRef.current?.scrollBy({ top: bodyRef.current.clientHeight * 0.8, behavior: "smooth" })}
        >
          {t("planMoreBelow")} <span aria-hidden="true">↓</span>
        </button>
      )}
      <div className="question-panel__custom-row">
        <label htmlFor={noteId} className="question-panel__note-label">
          {t("planNoteLabel")}
        </label>
        <textarea
          id={noteId}
          className="composer-card__field question-panel__custom"
          placeholder={t("planNotePlaceholder")}
          rows={2}
          value={feedback}
          disabled={disabled}
          onChange={(event) => props.onFeedback(event.target.value)}
        />
      </div>
      <div className="composer-card__footer question-panel__footer">
        <StatusLine status={props.status} />
        <div className="question-panel__footer-row">
          <button type="button" className="composer-card__button" disabled={disabled} onClick={() => props.onChat(feedback)}>
            {t("chatAboutIt")}
          </button>
          <div className="question-panel__actions">
            {refuseLabel !== null && (
              <button type="button" className="composer-card__button" disabled={disabled} onClick={() => props.onAnswer(planReviewAnswers(review, refuseLabel, feedback))}>
                {t("refuse")}
              </button>
            )}
            <button
              type="button"
              className="composer-card__button composer-card__button--primary"
              disabled={disabled}
              onClick={() => props.onAnswer(planReviewAnswers(review, review.approveLabel, feedback))}
            >
              {t("approve")}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
