import { useEffect, useId, useRef } from "react";
import { useCopy } from "../../i18n/i18n";
import { questionCopy } from "./copy";

interface DismissConfirmProps {
  onKeep: () => void;
  onDiscard: () => void;
}

/** The inline "Discard your answers?" question shown before a drafted request is cancelled. */
export function DismissConfirm({ onKeep, onDiscard }: DismissConfirmProps) {
  const t = useCopy(questionCopy);
  const promptId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    keepRef.current?.focus();
  }, []);
  return (
    <div className="question-panel__confirm" role="group" aria-labelledby={promptId}>
      <p id={promptId} className="question-panel__confirm-text">
        {t("discardPrompt")}
      </p>
      <div className="question-panel__actions">
        <button type="button" className="composer-card__button" onClick={onKeep} ref={keepRef}>
          {t("keepAnswering")}
        </button>
        <button type="button" className="composer-card__button composer-card__button--danger" onClick={onDiscard}>
          {t("discard")}
        </button>
      </div>
    </div>
  );
}
