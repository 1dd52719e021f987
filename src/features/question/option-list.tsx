import * as Checkbox from "@radix-ui/react-checkbox";
import * as RadioGroup from "@radix-ui/react-radio-group";
import { useId, type KeyboardEvent, type ReactNode } from "react";
import type { QuestionItem, QuestionOption } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { questionCopy } from "./copy";
import { ModelText } from "./model-text";
import { parseRecommendation } from "../../protocol/recommendation";
import { isPickEnter, MAX_NUMBER_KEY, moveCheckboxFocus, pointOf, useArrowKeyPressed, type ChoicePoint, type StepGuard } from "./step-keys";

/** How a deliberate choice was made: Enter on the last question sends, a click there only chooses. */
export type PickSource = "click" | "enter" | "key";

interface OptionListProps {
  question: QuestionItem;
  selected: readonly string[];
  labelledBy: string;
  disabled: boolean;
  isImeKey: (event: KeyboardEvent) => boolean;
  /** A deliberate choice (click, tap, Space, Enter): single-select advances on it. */
  onPick: (label: string, source: PickSource, point: ChoicePoint) => void;
  /** Blocks the second tap of a double tap that already moved the wizard on. */
  guard: StepGuard;
  /** A selection change that must not advance (arrow keys). */
  onSelect: (label: string) => void;
  onCheckedChange: (label: string, checked: boolean) => void;
  /** What an option shows instead of its label (a server's Yes and No, translated); the label stays the value. */
  shownLabel?: ((label: string) => string) | undefined;
  /** Options pre-filled by the question's defaults, badged as such while the draft still holds them. */
  defaultLabels?: readonly string[] | undefined;
}

interface OptionIds {
  label: string;
  badge: string;
  defaultBadge: string;
  description: string;
}

function optionIds(base: string, index: number): OptionIds {
  return { label: `${base}-label-${index}`, badge: `${base}-badge-${index}`, defaultBadge: `${base}-default-${index}`, description: `${base}-description-${index}` };
}

function describedBy(option: QuestionOption, ids: OptionIds, isDefault: boolean): string | undefined {
  const parts = [parseRecommendation(option.label).recommended ? ids.badge : "", isDefault ? ids.defaultBadge : "", option.description ? ids.description : ""];
  const joined = parts.filter(Boolean).join(" ");
  return joined === "" ? undefined : joined;
}

interface OptionTextProps {
  option: QuestionOption;
  index: number;
  ids: OptionIds;
  shown: string;
  isDefault: boolean;
}

function OptionText({ option, index, ids, shown, isDefault }: OptionTextProps) {
  const t = useCopy(questionCopy);
  const { display, recommended } = parseRecommendation(shown);
  return (
    <span className="question-option__text">
      <span className="question-option__title">
        <span id={ids.label} className="question-option__label">
          <ModelText text={display} />
        </span>
        {recommended && (
          <span id={ids.badge} className="question-option__badge">
            {t("recommended")}
          </span>
        )}
        {isDefault && (
          <span id={ids.defaultBadge} className="question-option__badge question-option__badge--default">
            {t("defaultBadge")}
          </span>
        )}
      </span>
      {option.description && (
        <span id={ids.description} className="question-option__description">
          <ModelText text={option.description} />
        </span>
      )}
      {index < MAX_NUMBER_KEY && (
        <kbd className="question-option__key" aria-hidden="true">
          {index + 1}
        </kbd>
      )}
    </span>
  );
}

function Indicator({ children }: { children: ReactNode }) {
  return (
    <span className="question-option__control" aria-hidden="true">
      {children}
    </span>
  );
}

export function OptionList(props: OptionListProps) {
  const { question, selected, labelledBy, disabled, isImeKey } = props;
  const base = useId();
  const arrowKeyPressed = useArrowKeyPressed();
  const options = question.options ?? [];
  const shownLabel = props.shownLabel ?? ((label: string) => label);
  const isDefault = (option: QuestionOption) => props.defaultLabels?.includes(option.label) === true;

  if (question.multiSelect) {
    return (
      <div role="group" aria-labelledby={labelledBy} className="question-options" onKeyDown={moveCheckboxFocus}>
        {options.map((option, index) => {
          const ids = optionIds(base, index);
          return (
            <Checkbox.Root
              key={option.label}
              className="question-option"
              checked={selected.includes(option.label)}
              disabled={disabled}
              aria-labelledby={ids.label}
              aria-describedby={describedBy(option, ids, isDefault(option))}
              onCheckedChange={(checked) => props.onCheckedChange(option.label, checked === true)}
              onClick={(event) => {
                if (props.guard.blocks(pointOf(event))) event.preventDefault();
              }}
            >
              <Indicator>
                <span className="question-option__check">✓</span>
              </Indicator>
              <OptionText option={option} index={index} ids={ids} shown={shownLabel(option.label)} isDefault={isDefault(option)} />
            </Checkbox.Root>
          );
        })}
      </div>
    );
  }

  return (
    <RadioGroup.Root
      className="question-options"
      aria-labelledby={labelledBy}
      value={selected[0] ?? ""}
      disabled={disabled}
      loop={false}
      onValueChange={props.onSelect}
    >
      {options.map((option, index) => {
        const ids = optionIds(base, index);
        return (
          // Keyed by place: the next single-select step updates these radios in place instead of mounting new ones.
          <RadioGroup.Item
            key={index}
            value={option.label}
            className="question-option"
            aria-labelledby={ids.label}
            aria-describedby={describedBy(option, ids, isDefault(option))}
            onClick={(event) => {
              if (arrowKeyPressed.current) return;
              const point = pointOf(event);
              if (props.guard.blocks(point)) {
                event.preventDefault();
                return;
              }
              props.onPick(option.label, "click", point);
            }}
            onKeyDown={(event) => {
              if (!isPickEnter(event, isImeKey(event))) return;
              event.preventDefault();
              props.onPick(option.label, "enter", null);
            }}
          >
            <Indicator>
              <span className="question-option__dot" />
            </Indicator>
            <OptionText option={option} index={index} ids={ids} shown={shownLabel(option.label)} isDefault={isDefault(option)} />
          </RadioGroup.Item>
        );
      })}
    </RadioGroup.Root>
  );
}
