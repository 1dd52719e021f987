import { useId, useLayoutEffect, useRef, useState, type Dispatch, type KeyboardEvent, type SetStateAction } from "react";
import type { AnswerItem, PendingRequest, QuestionItem } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { Markdown } from "../../ui/markdown";
import { buildAnswers } from "./batch";
import {
  chooseOption,
  draftOf,
  firstIncomplete,
  goToQuestion,
  isComplete,
  isDefaultDraft,
  skipQuestion,
  toggleOption,
  typeCustom,
  type DraftState,
} from "./draft";
import { CustomAnswerField } from "./custom-answer-field";
import { FieldProblemLine } from "./field-problem";
import { draftProblem, firstUnsendable, isServerYesNo } from "./field-rules";
import { questionCopy, type QuestionMessageKey } from "./copy";
import { boundsHint, KEYED_OPTIONS } from "./bounds-hint";
import { ModelText, showBidiControls } from "./model-text";
import { OptionList, type PickSource } from "./option-list";
import { ReviewStep } from "./review-step";
import { needsReview, reviewIndex } from "./step-state";
import { Stepper } from "./stepper";
import { createStepGuard, readStepKey, revealStep, stepPart, useStepFocus, type ChoicePoint } from "./step-keys";
import type { PanelStatus } from "./status-line";
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

/** What a multi-select asks for: any number, or its bounds (minSelected, maxSelected). */
function selectionHint(t: (key: QuestionMessageKey, values?: Record<string, number>) => string, question: QuestionItem): string {
  const { minSelected: min, maxSelected: max } = question;
  if (min !== undefined && max !== undefined) return t("selectBetween", { min, max });
  if (min !== undefined) return t("selectAtLeast", { min });
  if (max !== undefined) return t("selectAtMost", { max });
  return t("multiSelectHint");
}

/** A batch of two or more has a review step after its last question; a single question has none. */
function clampStep(index: number, count: number): number {
  return Math.max(0, Math.min(index, count > 1 ? count : 0));
}

/** One question at a time (heading, detail, options, custom answer, footer), then a review step for a batch that needs one. */
export function QuestionWizard(props: QuestionWizardProps) {
  const { request, state, onChange, disabled, headingId } = props;
  const t = useCopy(questionCopy);
  const rootRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [stepGuard] = useState(createStepGuard);
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
  const showsDefaults = question.defaults !== undefined && isDefaultDraft(question, draft);
  const yesNo = isServerYesNo(question, request.origin);
  const shownLabel = (label: string) => (!yesNo ? label : label === "Yes" ? t("yesOption") : t("noOption"));

  useStepFocus(rootRef, step, props.takeFocus);

  useLayoutEffect(() => revealStep(rootRef.current, bodyRef.current), [step]);

  const change = (update: (current: DraftState) => DraftState) => {
    if (props.status?.kind === "complete-first") props.onStatus(null);
    onChange(update);
  };

  /** Nothing is sent while a question breaks its rules (rules answer-input, question-required): the user is taken to it instead. */
  const send = (from: DraftState) => {
    const unsendable = firstUnsendable(questions, from);
    if (unsendable !== -1) {
      change(() => ({ ...from, index: unsendable }));
      return;
    }
    if (from !== state) onChange(from);
    props.onSubmit(buildAnswers(questions, from));
  };

  /** The end of the batch: the review step when something is not answered, else straight out. */
  const finish = (from: DraftState) => {
    if (needsReview(questions, from)) {
      change(() => ({ ...from, index: reviewIndex(questions) }));
      return;
    }
    if (!isComplete(question, draftOf(from, question.id))) {
      props.onStatus({ kind: "complete-first" });
      return;
    }
    send(from);
  };

  const advance = (from: DraftState) => (isLast ? from : goToQuestion(from, index + 1, count));
  const primary = () => {
    if (!isComplete(question, draft) || problem !== null) return;
    if (isLast) finish(state);
    else change(advance);
  };
  const pick = (label: string, source: PickSource, point: ChoicePoint) => {
    if (source !== "click" && stepGuard.blocks(null)) return;
    const chosen = chooseOption(state, question, label);
    if (isLast) {
      // Most agents ask one question: a pick on it, with nothing typed, answers it as a pick in a batch moves on.
      const answersAtOnce = count === 1 && draft.custom.trim() === "";
      if (answersAtOnce) stepGuard.arm(point);
      if (source === "enter" || answersAtOnce) finish(chosen);
      else change(() => chosen);
      return;
    }
    stepGuard.arm(point);
    change(() => advance(chosen));
  };
  const select = (update: (current: DraftState) => DraftState) => change(update);
  const skip = () => {
    if (question.required) return;
    const skipped = skipQuestion(state, question);
    if (isLast) finish(skipped);
    else change(() => advance(skipped));
  };

  /** docs/architecture.md, rule step-keys: Enter as the primary button, 1…9 choose an option. */
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled || props.isImeKey(event) || onReview) return;
    const key = readStepKey(event);
    if (key === null) return;
    if (key.kind === "enter") {
      event.preventDefault();
      if (!key.inText && stepGuard.blocks(null)) return;
      if (!key.inText && firstIncomplete(questions, state) === -1) finish(state);
      else primary();
      return;
    }
    const option = question.options?.[key.number - 1];
    if (!option) return;
    event.preventDefault();
    if (question.multiSelect) {
      if (!stepGuard.blocks(null)) select((current) => toggleOption(current, question, option.label));
    } else pick(option.label, "key", null);
  };

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
      onPrimary={onReview ? () => send(state) : primary}
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

  // A server's form leads its first field with the form's message (the host puts it first in that field's detail), so it is read before the field.
  const bounds = offersText ? boundsHint(t, question.input) : null;
  const options = question.options?.length ?? 0;
  const formMessage = index === 0 && request.origin?.kind === "mcp-server" && question.detail !== undefined;
  const detail = question.detail && (
    <div dir="auto" className={`question-panel__isolate${formMessage ? " question-panel__lead" : ""}`}>
      <Markdown text={showBidiControls(question.detail)} className="question-panel__detail" wrap />
    </div>
  );

  return (
    <div className="question-panel__wizard" ref={rootRef} onKeyDown={handleKeyDown}>
      <div className="question-panel__announcer" aria-live="polite">
        {t("announceStep", { index: index + 1, count, question: showBidiControls(question.question) })}
      </div>
      <div className="question-panel__body" ref={bodyRef}>
        {formMessage && detail}
        <h2 id={headingId} className="question-panel__question" tabIndex={-1} {...stepPart("heading")}>
          <ModelText text={question.question} />
        </h2>
        {!formMessage && detail}
        {question.required && <p className="question-panel__hint">{t("requiredHint")}</p>}
        {bounds !== null && <p className="question-panel__hint question-panel__hint--bounds">{bounds}</p>}
        {options > KEYED_OPTIONS && <p className="question-panel__hint question-panel__hint--scroll">{t("manyOptions", { count: options })}</p>}
        {question.multiSelect && hasOptions && <p className="question-panel__hint">{selectionHint(t, question)}</p>}
        {showsDefaults && <p className="question-panel__hint question-panel__hint--default">{t("defaultHint")}</p>}
        {hasOptions && (
          <OptionList
            key={question.id}
            question={question}
            selected={draft.selected}
            labelledBy={headingId}
            disabled={disabled}
            isImeKey={props.isImeKey}
            onPick={pick}
            guard={stepGuard}
            onSelect={(label) => select((current) => chooseOption(current, question, label))}
            onCheckedChange={(label, checked) => select((current) => chooseOption(current, question, label, checked))}
            shownLabel={shownLabel}
            defaultLabels={showsDefaults ? draft.selected : undefined}
          />
        )}
        {!offersText && <FieldProblemLine id={problemId} problem={problem} />}
      </div>
      {offersText && (
      <div className="question-panel__custom-row">
        <CustomAnswerField
          key={question.id}
          multiline={!hasOptions && (question.input === undefined || question.input.kind === "text")}
          input={question.input}
          problemId={problem?.kind === "input" ? problemId : undefined}
          enterKeyHint={isLast && !needsReview(questions, state) ? "done" : "next"}
          value={draft.custom}
          disabled={disabled}
          isImeKey={props.isImeKey}
          onChange={(text) => {
            stepGuard.disarm();
            change((current) => typeCustom(current, question, text));
          }}
          onLineBreak={primary}
        />
        <FieldProblemLine id={problemId} problem={problem} />
      </div>
      )}
      {footer}
    </div>
  );
}
