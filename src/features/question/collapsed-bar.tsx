import type { Ref } from "react";
import type { QuestionItem } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { draftOf, isAnswered, isComplete, type DraftState } from "./draft";
import { questionCopy } from "./copy";
import { IconButton } from "./icon-button";

interface CollapsedBarProps {
  questions: readonly QuestionItem[];
  state: DraftState;
  textId: string;
  /** A plan review: one decision, whatever the questions it is carried in. */
  plan?: boolean;
  onExpand: () => void;
  ref?: Ref<HTMLButtonElement>;
}

/** The one-line bar a collapsed panel shrinks to: what is left, and the way back. The question stays pending. */
export function CollapsedBar({ questions, state, textId, plan = false, onExpand, ref }: CollapsedBarProps) {
  const t = useCopy(questionCopy);
  const count = questions.length;
  const left = questions.filter((question) => !isComplete(question, draftOf(state, question.id))).length;
  // A skip completes its question but is no answer: a batch with skips is not "all answered".
  const answered = questions.filter((question) => isAnswered(question, draftOf(state, question.id))).length;
  const text = plan
    ? t("waitingPlan")
    : count === 1
      ? t("waitingOne")
      : left > 0
        ? t("leftOf", { left, count })
        : answered === count
          ? t("allAnswered", { count })
          : t("answeredSkipped", { answered, skipped: count - answered });
  return (
    <div className="question-panel__bar">
      <span className="question-panel__bar-text" id={textId}>
        {text}
      </span>
      <span className="question-panel__bar-dot" aria-hidden="true">
        ·
      </span>
      <button type="button" className="composer-card__button composer-card__button--primary" onClick={onExpand} ref={ref}>
        {t("answer")}
      </button>
      <IconButton className="question-panel__bar-expand" label={t("expand")} glyph="▴" expanded={false} onClick={onExpand} />
    </div>
  );
}
