import type { KeyboardEvent, Ref } from "react";
import type { QuestionItem, QuestionOrigin } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { Markdown } from "../../ui/markdown";
import { chooseOption, isDefaultDraft, type DraftState, type QuestionDraft } from "./draft";
import { FieldProblemLine } from "./field-problem";
import { isServerYesNo, type FieldProblem } from "./field-rules";
import { questionCopy, type QuestionMessageKey } from "./copy";
import { boundsHint, KEYED_OPTIONS } from "./bounds-hint";
import { ModelText } from "./model-text";
import { OptionList, type PickSource } from "./option-list";
import { stepPart, type ChoicePoint, type StepGuard } from "./step-keys";

interface QuestionBodyProps {
  question: QuestionItem;
  /** The question's place in the batch. */
  index: number;
  origin: QuestionOrigin | undefined;
  draft: QuestionDraft;
  problem: FieldProblem | null;
  problemId: string;
  headingId: string;
  disabled: boolean;
  isImeKey: (event: KeyboardEvent) => boolean;
  guard: StepGuard;
  bodyRef: Ref<HTMLDivElement>;
  onPick: (label: string, source: PickSource, point: ChoicePoint) => void;
  /** A draft change that does not move on. */
  onSelect: (update: (current: DraftState) => DraftState) => void;
}

/** What a multi-select asks for: any number, or its bounds (minSelected, maxSelected). */
function selectionHint(t: (key: QuestionMessageKey, values?: Record<string, number>) => string, question: QuestionItem): string {
  const { minSelected: min, maxSelected: max } = question;
  if (min !== undefined && max !== undefined) return t("selectBetween", { min, max });
  if (min !== undefined) return t("selectAtLeast", { min });
  if (max !== undefined) return t("selectAtMost", { max });
  return t("multiSelectHint");
}

/** One question step's body: heading, detail, hints and options; the free-text row sits below it. */
export function QuestionBody(props: QuestionBodyProps) {
  const { question, index, origin, draft, problem, problemId, headingId, disabled, isImeKey, guard, bodyRef, onPick, onSelect } = props;
  const t = useCopy(questionCopy);
  const hasOptions = (question.options ?? []).length > 0;
  const offersText = question.freeText !== false;
  const showsDefaults = question.defaults !== undefined && isDefaultDraft(question, draft);
  const yesNo = isServerYesNo(question, origin);
  const shownLabel = (label: string) => (!yesNo ? label : label === "Yes" ? t("yesOption") : t("noOption"));

  // A server's form leads its first field with the form's message (the host puts it first in that field's detail), so it is read before the field.
  const bounds = offersText ? boundsHint(t, question.input) : null;
  const options = question.options?.length ?? 0;
  const formMessage = index === 0 && origin?.kind === "mcp-server" && question.detail !== undefined;
  const detail = question.detail && (
    <div dir="auto" className={`question-panel__isolate${formMessage ? " question-panel__lead" : ""}`}>
      <Markdown text={question.detail} className="question-panel__detail" wrap />
    </div>
  );

  return (
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
          key={question.multiSelect ? question.id : "single"}
          question={question}
          selected={draft.selected}
          labelledBy={headingId}
          disabled={disabled}
          isImeKey={isImeKey}
          onPick={onPick}
          guard={guard}
          onSelect={(label) => onSelect((current) => chooseOption(current, question, label))}
          onCheckedChange={(label, checked) => onSelect((current) => chooseOption(current, question, label, checked))}
          shownLabel={shownLabel}
          defaultLabels={showsDefaults ? draft.selected : undefined}
        />
      )}
      {!offersText && <FieldProblemLine id={problemId} problem={problem} />}
    </div>
  );
}
