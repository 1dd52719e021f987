import { useEffect, useId, useRef, type KeyboardEvent } from "react";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { useCopy } from "../../i18n/i18n";
import { isLineBreakInput } from "../../ui/ime";
import { questionCopy } from "./copy";
import type { AnswerInput } from "../../protocol/schemas";
import { fieldInput } from "./field-rules";
import { stepPart } from "./step-keys";

interface CustomAnswerFieldProps {
  multiline: boolean;
  /** What the on-screen keyboard's Enter key says: move on, or finish. */
  enterKeyHint: "next" | "done";
  value: string;
  disabled: boolean;
  isImeKey: (event: KeyboardEvent) => boolean;
  onChange: (value: string) => void;
  /** Enter that arrived only as a line-break input (Android keyboards): acts as the primary button. */
  onLineBreak: () => void;
  /** What the answer must be (rule answer-input): picks the input type and keyboard; absent, plain text. */
  input?: AnswerInput | undefined;
  /** Set while the text breaks `input`; names the line that says why. */
  problemId?: string | undefined;
  /** The field holds the question's default, untouched: focusing the step selects it, so what is typed replaces it. */
  prefilled?: boolean;
}

/** The free-text answer: a line under options, a textarea for an optionless plain-text question, a typed field for `input`. */
export function CustomAnswerField({ multiline, enterKeyHint, value, disabled, isImeKey, onChange, onLineBreak, input, problemId, prefilled = false }: CustomAnswerFieldProps) {
  const kind = fieldInput(input);
  const t = useCopy(questionCopy);
  const noteId = useId();
  // The suggested answer is outside words a field cannot mark: what it hides is shown beside it, as sent if kept.
  const marked = prefilled ? showHiddenCharacters(value) : value;
  const note = marked === value ? null : (
    <p id={noteId} className="question-panel__hidden-note">
      {t("defaultHidden", { text: marked })}
    </p>
  );
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const shiftEnterRef = useRef(false);
  const onLineBreakRef = useRef(onLineBreak);
  useEffect(() => {
    onLineBreakRef.current = onLineBreak;
  });

  useEffect(() => {
    const field = ref.current;
    if (!field) return;
    const onBeforeInput = (event: InputEvent) => {
      const newline = shiftEnterRef.current;
      shiftEnterRef.current = false;
      if (!isLineBreakInput(event) || (multiline && newline)) return;
      event.preventDefault();
      onLineBreakRef.current();
    };
    field.addEventListener("beforeinput", onBeforeInput);
    return () => field.removeEventListener("beforeinput", onBeforeInput);
  }, [multiline]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    shiftEnterRef.current = event.key === "Enter" && event.shiftKey && !isImeKey(event);
  };

  const shared = {
    className: "composer-card__field question-panel__custom",
    ...stepPart("custom"),
    "data-prefilled": prefilled ? "" : undefined,
    "aria-label": t("customLabel"),
    placeholder: t("customPlaceholder"),
    value,
    disabled,
    autoComplete: "off",
    spellCheck: kind.spellCheck,
    "aria-invalid": problemId === undefined ? undefined : true,
    "aria-describedby": [problemId, note && noteId].filter(Boolean).join(" ") || undefined,
    enterKeyHint,
    onKeyDown,
    ref,
  };
  const field = multiline ? (
    <textarea {...shared} rows={3} onChange={(event) => onChange(event.target.value)} />
  ) : (
    <input {...shared} type={kind.type} inputMode={kind.inputMode} onChange={(event) => onChange(event.target.value)} />
  );
  return (
    <>
      {field}
      {note}
    </>
  );
}
