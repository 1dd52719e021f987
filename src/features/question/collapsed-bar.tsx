import type { Ref } from "react";
import { useMessages } from "../../i18n/i18n";
import { questionMessages } from "./messages";

interface CollapsedBarProps {
  questionCount: number;
  textId: string;
  onExpand: () => void;
  ref?: Ref<HTMLButtonElement>;
}

/** The one-line bar a collapsed panel shrinks to; the question stays pending. */
export function CollapsedBar({ questionCount, textId, onExpand, ref }: CollapsedBarProps) {
  const t = useMessages(questionMessages);
  const waiting = questionCount === 1 ? t("waitingOne") : t("waitingMany", { count: questionCount });
  return (
    <div className="question-panel__bar">
      <span className="question-panel__bar-text">
        <span id={textId}>{waiting}</span>
        <span aria-hidden="true"> · </span>
      </span>
      <button type="button" className="question-panel__button question-panel__button--primary" onClick={onExpand} ref={ref}>
        {t("answer")}
      </button>
      <button
        type="button"
        className="question-panel__icon-button"
        aria-label={t("expand")}
        aria-expanded={false}
        onClick={onExpand}
      >
        <span aria-hidden="true">▴</span>
      </button>
    </div>
  );
}
