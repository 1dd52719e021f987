import type { QuestionItem } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { draftOf, type DraftState } from "./draft";
import { draftProblem } from "./field-rules";
import { questionCopy } from "./copy";
import { ModelText } from "./model-text";
import { stepState, type StepState } from "./step-state";
import { stepPart } from "./step-keys";

interface StepperProps {
  questions: readonly QuestionItem[];
  state: DraftState;
  /** The current question, or -1 on the review step. */
  current: number;
  /** Goes to the review step, the stepper's last item. */
  onReview: () => void;
  disabled: boolean;
  /** The current answer breaks a rule: later steps cannot be jumped to until it is fixed. */
  forwardBlocked?: boolean;
  onJump: (index: number) => void;
}

const STATE_KEYS = { answered: "stepAnswered", skipped: "stepSkipped", unanswered: "stepNotYet" } as const satisfies Record<StepState, string>;

/** One line of small items, one per question, marked current / answered (✓) / skipped (the word) / not yet (an invalid answer too), then the review step; each jumps there. */
export function Stepper({ questions, state, current, disabled, forwardBlocked = false, onJump, onReview }: StepperProps) {
  const t = useCopy(questionCopy);
  const count = questions.length;
  return (
    <ol className="question-stepper" aria-label={t("stepperLabel")} {...stepPart("stepper")}>
      {questions.map((question, index) => {
        // An answer that breaks its question's rules (a wrong email, too many labels) is not yet an answer.
        const shown = draftProblem(question, draftOf(state, question.id)) === null ? stepState(question, state) : "unanswered";
        const isCurrent = index === current;
        const name = t("stepName", { index: index + 1, count, state: t(STATE_KEYS[shown]) });
        return (
          <li key={question.id} className="question-stepper__item">
            <button
              type="button"
              className="question-stepper__step"
              aria-label={name}
              aria-current={isCurrent ? "step" : undefined}
              data-state={shown}
              disabled={disabled || (forwardBlocked && current !== -1 && index > current)}
              onClick={() => onJump(index)}
            >
              <span className="question-stepper__number" aria-hidden="true">
                {shown === "answered" ? "✓" : index + 1}
              </span>
              {shown === "skipped" && (
                <span className="question-stepper__skipped" aria-hidden="true">
                  {t("stepSkipped")}
                </span>
              )}
              {question.header && question.header.trim() !== "" && (
                <span className="question-stepper__header" aria-hidden="true">
                  <ModelText text={question.header} />
                </span>
              )}
            </button>
          </li>
        );
      })}
      <li className="question-stepper__item">
        <button
          type="button"
          className="question-stepper__step question-stepper__step--review"
          aria-label={t("reviewHeading")}
          aria-current={current === -1 ? "step" : undefined}
          disabled={disabled || (forwardBlocked && current !== -1)}
          onClick={onReview}
        >
          <span className="question-stepper__header">{t("reviewStep")}</span>
        </button>
      </li>
    </ol>
  );
}
