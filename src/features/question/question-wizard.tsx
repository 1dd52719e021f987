import { useId, useLayoutEffect, useRef, type Dispatch, type KeyboardEvent, type SetStateAction } from "react";
import type { AnswerItem, PendingRequest } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { draftOf, goToQuestion, isComplete, isDefaultDraft, typeCustom, type DraftState } from "./draft";
import { CustomAnswerField } from "./custom-answer-field";
import { FieldProblemLine } from "./field-problem";
import { draftProblem, firstUnsendable } from "./field-rules";
import { questionCopy } from "./copy";
import { showBidiControls } from "./model-text";
import { QuestionBody } from "./question-body";
import { ReviewStep } from "./review-step";
import { needsReview, reviewIndex } from "./step-state";
import { Stepper } from "./stepper";
import { revealStep, useStepFocus } from "./step-keys";
import type { PanelStatus } from "./status-line";
import { useWizardActions } from "./use-wizard-actions";
import { WizardFooter } from "./wizard-footer";

interface QuestionWizardProps {
  request: PendingRequest;
  state: DraftState;
  onChange: Dispatch<SetStateAction<DraftState>>;
  status: PanelStatus;
  onStatus: (status: PanelStatus) => void;
  disabled: boolean;
  submitting: boolean;
  headingId: string;
  takeFocus: boolean;
  isImeKey: (event: KeyboardEvent) => boolean;
  onSubmit: (answers: AnswerItem[]) => void;
}

/** A batch of two or more has a review step after its last question; a single question has none. */
function clampStep(index: number, count: number): number {
  return Math.max(0, Math.min(index, count > 1 ? count : 0));
}

/** One question at a time (heading, detail, options, custom answer, footer), then a review step for a batch that needs one. */
export function QuestionWizard(props: QuestionWizardProps) {
  const { request, state, disabled, headingId } = props;
  const t = useCopy(questionCopy);
  const rootRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const { questions } = request;
  const count = questions.length;
  const step = clampStep(state.index, count);
  const onReview = count > 1 && step === reviewIndex(questions);
  const index = onReview ? count - 1 : step;
  const question = questions[index]!;
  const draft = draftOf(state, question.id);
  const isLast = index === count - 1;
  const hasOptions = (question.options ?? []).length > 0;
  const problemId = useId();
  const problem = onReview ? null : draftProblem(question, draft);
  const offersText = question.freeText !== false;
  const { stepGuard, disarmGuards, change, submitReviewed, primary, pick, select, skip, handleKeyDown } = useWizardActions({
    questions,
    state,
    onChange: props.onChange,
    status: props.status,
    onStatus: props.onStatus,
    onSubmit: props.onSubmit,
    index,
    onReview,
    problem,
    disabled,
    isImeKey: props.isImeKey,
  });

  useStepFocus(rootRef, step, props.takeFocus);

  // In the next frame, before it is laid out: scrolling now would force a layout of the step just rendered, and the
  // frame would lay it out again. Focus moves without scrolling (focusStep), so the order does not matter.
  useLayoutEffect(() => {
    const frame = requestAnimationFrame(() => revealStep(rootRef.current, bodyRef.current));
    return () => cancelAnimationFrame(frame);
  }, [step]);

  const footer = (
    <WizardFooter
      step={onReview ? "review" : isLast ? "last" : "question"}
      stepper={
        count > 1 ? (
          <Stepper
            questions={questions}
            state={state}
            current={onReview ? -1 : index}
            disabled={disabled}
            forwardBlocked={problem !== null}
            onJump={(to) => change((current) => goToQuestion(current, to, count))}
            onReview={() => change((current) => ({ ...current, index: reviewIndex(questions) }))}
          />
        ) : null
      }
      showPager={count > 1}
      index={index}
      count={count}
      status={props.status}
      disabled={disabled}
      submitting={props.submitting}
      primaryEnabled={onReview ? firstUnsendable(questions, state) === -1 : isComplete(question, draft) && problem === null}
      canSkip={question.required !== true}
      forwardBlocked={problem !== null}
      reviewNext={!onReview && isLast && needsReview(questions, state)}
      onPrevious={() => change((current) => goToQuestion(current, onReview ? count - 1 : index - 1, count))}
      onNext={() => change((current) => goToQuestion(current, index + 1, count))}
      onSkip={skip}
      onPrimary={onReview ? submitReviewed : primary}
    />
  );

  if (onReview) {
    return (
      <div className="question-panel__wizard" ref={rootRef} onKeyDown={handleKeyDown} data-step="review">
        <div className="question-panel__announcer" aria-live="polite">
          {t("reviewHeading")}
        </div>
        <ReviewStep
          questions={questions}
          state={state}
          origin={request.origin}
          headingId={headingId}
          disabled={disabled}
          bodyRef={bodyRef}
          onChange={(to) => change((current) => goToQuestion(current, to, count))}
        />
        {footer}
      </div>
    );
  }

  return (
    <div className="question-panel__wizard" ref={rootRef} onKeyDown={handleKeyDown}>
      <div className="question-panel__announcer" aria-live="polite">
        {t("announceStep", { index: index + 1, count, question: showBidiControls(question.question) })}
      </div>
      <QuestionBody
        question={question}
        index={index}
        origin={request.origin}
        draft={draft}
        problem={problem}
        problemId={problemId}
        headingId={headingId}
        disabled={disabled}
        isImeKey={props.isImeKey}
        guard={stepGuard}
        bodyRef={bodyRef}
        onPick={pick}
        onSelect={select}
      />
      {offersText && (
      <div className="question-panel__custom-row">
        <CustomAnswerField
          key={question.id}
          multiline={!hasOptions && (question.input === undefined || question.input.kind === "text")}
          input={question.input}
          problemId={problem?.kind === "input" ? problemId : undefined}
          prefilled={draft.custom !== "" && isDefaultDraft(question, draft)}
          enterKeyHint={isLast && !needsReview(questions, state) ? "done" : "next"}
          value={draft.custom}
          disabled={disabled}
          isImeKey={props.isImeKey}
          onChange={(text) => {
            disarmGuards();
            change((current) => typeCustom(current, question, text));
          }}
          onLineBreak={() => primary()}
        />
        <FieldProblemLine id={problemId} problem={problem} />
      </div>
      )}
      {footer}
    </div>
  );
}
