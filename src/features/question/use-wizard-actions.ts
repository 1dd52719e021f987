import { useState, type Dispatch, type KeyboardEvent, type SetStateAction } from "react";
import type { AnswerItem, QuestionItem } from "../../protocol/schemas";
import { buildAnswers } from "./batch";
import { chooseOption, draftOf, goToQuestion, isComplete, skipQuestion, toggleOption, type DraftState } from "./draft";
import { firstUnsendable, type FieldProblem } from "./field-rules";
import type { PickSource } from "./option-list";
import { needsReview, reviewIndex } from "./step-state";
import { createStepGuard, readStepKey, type ChoicePoint } from "./step-keys";
import type { PanelStatus } from "./status-line";
import { MODIFIER_KEYS } from "../../ui/keys";

interface WizardActionsOptions {
  questions: readonly QuestionItem[];
  state: DraftState;
  onChange: Dispatch<SetStateAction<DraftState>>;
  status: PanelStatus;
  onStatus: (status: PanelStatus) => void;
  onSubmit: (answers: AnswerItem[]) => void;
  /** The question shown; the last one on the review step. */
  index: number;
  onReview: boolean;
  /** What breaks the shown question's rules; null on the review step. */
  problem: FieldProblem | null;
  disabled: boolean;
  isImeKey: (event: KeyboardEvent) => boolean;
}

/**
 * What the wizard's controls and keys do to the draft: move on, pick, skip, finish the batch and
 * send it. Holds the step guard that keeps a double tap to one question.
 */
export function useWizardActions(options: WizardActionsOptions) {
  const { questions, state, onChange, index, onReview, problem } = options;
  const [stepGuard] = useState(createStepGuard);
  /** Armed by a move to the next step by Next (Enter, a click): a second Enter or click right after it moves no further. */
  const [nextGuard] = useState(createStepGuard);
  const count = questions.length;
  const question = questions[index]!;
  const draft = draftOf(state, question.id);
  const isLast = index === count - 1;

  const change = (update: (current: DraftState) => DraftState) => {
    if (options.status?.kind === "complete-first") options.onStatus(null);
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
    options.onSubmit(buildAnswers(questions, from));
  };

  /** The end of the batch: the review step when something is not answered, else straight out. */
  const finish = (from: DraftState) => {
    if (needsReview(questions, from)) {
      change(() => ({ ...from, index: reviewIndex(questions) }));
      return;
    }
    if (!isComplete(question, draftOf(from, question.id))) {
      options.onStatus({ kind: "complete-first" });
      return;
    }
    send(from);
  };

  const advance = (from: DraftState) => (isLast ? from : goToQuestion(from, index + 1, count));
  /**
   * Next, Review or Submit (the button, Enter, a phone keyboard's line break). A move to the next step arms the next guard:
   * a double Enter or a double click moves one step, never on past a step it opened unseen (a default); another key
   * (a digit, Space, letters) is the user's next answer and is taken, and so is a single click (`single`).
   */
  const primary = (point: ChoicePoint = null, single = false) => {
    if ((!single && nextGuard.blocks(point)) || !isComplete(question, draft) || problem !== null) return;
    nextGuard.arm(point);
    if (isLast) finish(state);
    else change(advance);
  };
  /** Submit on the review step: the second click of a double click on Review (Submit takes its place) sends nothing. */
  const submitReviewed = (point: ChoicePoint, single: boolean) => {
    if (single || !nextGuard.blocks(point)) send(state);
  };
  const pick = (label: string, source: PickSource, point: ChoicePoint) => {
    if (source !== "click" && stepGuard.blocks(null)) return;
    // Enter on a radio a Next just opened (its default, or the first one focused) is the second half of a double Enter.
    if (source === "enter" && nextGuard.blocks(null)) return;
    nextGuard.disarm();
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
  const select = (update: (current: DraftState) => DraftState) => {
    nextGuard.disarm();
    change(update);
  };
  const skip = () => {
    if (question.required) return;
    const skipped = skipQuestion(state, question);
    if (isLast) finish(skipped);
    else change(() => advance(skipped));
  };

  /** docs/architecture.md, rule step-keys: Enter as the primary button, 1…9 choose an option. */
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Any other key between two Enters (Tab, Space, a digit, a letter) makes the second one deliberate.
    if (event.key !== "Enter" && !MODIFIER_KEYS.has(event.key)) nextGuard.disarm();
    if (options.disabled || options.isImeKey(event) || onReview) return;
    const key = readStepKey(event);
    if (key === null) return;
    if (key.kind === "enter") {
      event.preventDefault();
      if (!key.inText && stepGuard.blocks(null)) return;
      // Only what the primary button does, however much is filled in: before the last question that is Next, never a send.
      // Held back right after a Next (the next guard), in a field too, unless something was typed there since (typing disarms it).
      primary();
      return;
    }
    const option = question.options?.[key.number - 1];
    if (!option) return;
    event.preventDefault();
    if (question.multiSelect) {
      if (!stepGuard.blocks(null)) select((current) => toggleOption(current, question, option.label));
    } else pick(option.label, "key", null);
  };

  /** The user typed an answer on the new step: the next choice or Enter is deliberate. */
  const disarmGuards = () => {
    stepGuard.disarm();
    nextGuard.disarm();
  };

  return { stepGuard, disarmGuards, change, submitReviewed, primary, pick, select, skip, handleKeyDown };
}
