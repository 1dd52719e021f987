import type { Ref } from "react";
import type { QuestionItem, QuestionOrigin } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { draftOf, type DraftState } from "./draft";
import { questionCopy } from "./copy";
import { ModelText } from "./model-text";
import { parseRecommendation } from "../../protocol/recommendation";
import { stepState } from "./step-state";
import { fieldProblemText } from "./field-problem";
import { firstUnsendable, isServerYesNo, sendProblem } from "./field-rules";
import { stepPart } from "./step-keys";

interface ReviewStepProps {
  questions: readonly QuestionItem[];
  state: DraftState;
  origin: QuestionOrigin | undefined;
  headingId: string;
  disabled: boolean;
  bodyRef: Ref<HTMLDivElement>;
  onChange: (index: number) => void;
}

function AnswerSummary({ question, state, origin }: { question: QuestionItem; state: DraftState; origin: QuestionOrigin | undefined }) {
  const t = useCopy(questionCopy);
  const shown = stepState(question, state);
  const problem = sendProblem(question, draftOf(state, question.id));
  if (problem?.kind === "required") return <span className="question-review__missing">{t("reviewRequired")}</span>;
  if (shown === "skipped") return <span className="question-review__muted">{t("reviewSkipped")}</span>;
  if (shown === "unanswered") return <span className="question-review__missing">{t("reviewNotAnswered")}</span>;
  const draft = draftOf(state, question.id);
  const labels = (question.options ?? []).map((option) => option.label).filter((label) => draft.selected.includes(label));
  const custom = draft.custom.trim() === "" ? [] : [draft.custom];
  const yesNo = isServerYesNo(question, origin);
  const shownLabel = (label: string) => (!yesNo ? parseRecommendation(label).display : label === "Yes" ? t("yesOption") : t("noOption"));
  const parts = question.multiSelect || custom.length === 0 ? [...labels.map(shownLabel), ...custom] : custom;
  return (
    <span className="question-review__answer">
      {parts.map((part, index) => (
        <span key={index}>
          {index > 0 && ", "}
          <ModelText text={part} />
        </span>
      ))}
      {problem && <span className="question-review__missing"> {fieldProblemText(t, problem)}</span>}
    </span>
  );
}

/** Every question of the batch with what will be sent for it, each with a way back to change it. */
export function ReviewStep({ questions, state, origin, headingId, disabled, bodyRef, onChange }: ReviewStepProps) {
  const t = useCopy(questionCopy);
  const missing = questions.filter((question) => stepState(question, state) === "unanswered").length;
  const blocked = firstUnsendable(questions, state) !== -1;
  return (
    <div className="question-panel__body" data-step="review" ref={bodyRef}>
      <h2 id={headingId} className="question-panel__question" tabIndex={-1} {...stepPart("heading")}>
        {t("reviewHeading")}
      </h2>
      <p className="question-panel__hint">{blocked ? t("reviewBlocked") : missing === 0 ? t("reviewHint") : t("reviewMissing", { count: missing })}</p>
      <ol className="question-review">
        {questions.map((question, index) => (
          <li key={question.id} className="question-review__item" data-state={stepState(question, state)}>
            <div className="question-review__text">
              <span className="question-review__question">
                <span className="question-review__number">{index + 1}. </span>
                <ModelText text={question.question} />
              </span>
              <AnswerSummary question={question} state={state} origin={origin} />
            </div>
            <button
              type="button"
              className="question-panel__link-button"
              aria-label={t("changeTarget", { index: index + 1 })}
              disabled={disabled}
              onClick={() => onChange(index)}
            >
              {t("change")}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
