import { useRef, type Dispatch, type KeyboardEvent, type SetStateAction } from "react";
import type { AnswerItem, PendingRequest } from "../../protocol/schemas";
import { useMessages } from "../../i18n/i18n";
import { Markdown } from "../../ui/markdown";
import { buildAnswers } from "./batch";
import {
  chooseOption,
  draftOf,
  firstIncomplete,
  goToQuestion,
  isComplete,
  skipQuestion,
  toggleOption,
  typeCustom,
  type DraftState,
} from "./draft";
import { CustomAnswerField } from "./custom-answer-field";
import { questionMessages } from "./messages";
import { ModelText, showBidiControls } from "./model-text";
import { OptionList } from "./option-list";
import { useStepFocus } from "./use-step-focus";
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

const NUMBER_KEY = /^[1-9]$/;

/** One question at a time: heading, detail, options, custom answer and the footer. */
export function QuestionWizard(props: QuestionWizardProps) {
  const { request, state, onChange, disabled, headingId } = props;
  const t = useMessages(questionMessages);
  const rootRef = useRef<HTMLDivElement>(null);
  const { questions } = request;
  const count = questions.length;
  const index = Math.min(state.index, count - 1);
  const question = questions[index]!;
  const draft = draftOf(state, question.id);
  const isLast = index === count - 1;
  const hasOptions = (question.options ?? []).length > 0;

  useStepFocus(rootRef, index, props.takeFocus);

  const change = (update: (current: DraftState) => DraftState) => {
    if (props.status?.kind === "complete-first") props.onStatus(null);
    onChange(update);
  };

  const submit = (from: DraftState) => {
    const missing = firstIncomplete(questions, from);
    if (missing !== -1) {
      onChange(goToQuestion(from, missing, count));
      props.onStatus({ kind: "complete-first" });
      return;
    }
    if (from !== state) onChange(from);
    props.onSubmit(buildAnswers(questions, from));
  };

  const advance = (from: DraftState) => (isLast ? from : goToQuestion(from, index + 1, count));
  const primary = () => {
    if (isLast) submit(state);
    else if (isComplete(question, draft)) change(advance);
  };
  const pick = (label: string) => change((current) => advance(chooseOption(current, question, label)));
  const skip = () => {
    if (isLast) submit(skipQuestion(state, question));
    else change((current) => advance(skipQuestion(current, question)));
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled || props.isImeKey(event)) return;
    const target = event.target as HTMLElement;
    const role = target.getAttribute("role");
    const inText = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
    if (event.key === "Enter") {
      if (role === "radio" || target instanceof HTMLAnchorElement) return;
      if (target instanceof HTMLButtonElement && role !== "checkbox") return;
      if (event.shiftKey && target instanceof HTMLTextAreaElement) return;
      event.preventDefault();
      if (!inText && firstIncomplete(questions, state) === -1) submit(state);
      else primary();
      return;
    }
    if (inText || event.altKey || event.ctrlKey || event.metaKey || !NUMBER_KEY.test(event.key)) return;
    const option = question.options?.[Number(event.key) - 1];
    if (!option) return;
    event.preventDefault();
    if (question.multiSelect) change((current) => toggleOption(current, question, option.label));
    else pick(option.label);
  };

  return (
    <div className="question-panel__wizard" ref={rootRef} onKeyDown={handleKeyDown}>
      <div className="question-panel__announcer" aria-live="polite">
        {t("announceStep", { index: index + 1, count, question: showBidiControls(question.question) })}
      </div>
      <div className="question-panel__body">
        <h2 id={headingId} className="question-panel__question" tabIndex={-1}>
          <ModelText text={question.question} />
        </h2>
        {question.detail && (
          <div dir="auto" className="question-panel__isolate">
            <Markdown text={question.detail} className="question-panel__detail" />
          </div>
        )}
        {question.multiSelect && hasOptions && <p className="question-panel__hint">{t("multiSelectHint")}</p>}
        {hasOptions && (
          <OptionList
            key={question.id}
            question={question}
            selected={draft.selected}
            labelledBy={headingId}
            disabled={disabled}
            isImeKey={props.isImeKey}
            onPick={pick}
            onSelect={(label) => change((current) => chooseOption(current, question, label))}
            onCheckedChange={(label, checked) => change((current) => chooseOption(current, question, label, checked))}
          />
        )}
      </div>
      <div className="question-panel__custom-row">
        <CustomAnswerField
          key={question.id}
          multiline={!hasOptions}
          isLast={isLast}
          value={draft.custom}
          disabled={disabled}
          onChange={(text) => change((current) => typeCustom(current, question, text))}
        />
      </div>
      <WizardFooter
        index={index}
        count={count}
        status={props.status}
        disabled={disabled}
        submitting={props.submitting}
        primaryEnabled={isLast || isComplete(question, draft)}
        onPrevious={() => change((current) => goToQuestion(current, index - 1, count))}
        onNext={() => change((current) => goToQuestion(current, index + 1, count))}
        onSkip={skip}
        onPrimary={primary}
      />
    </div>
  );
}
