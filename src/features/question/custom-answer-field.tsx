import { useEffect, useRef, type KeyboardEvent } from "react";
import { useCopy } from "../../i18n/i18n";
import { isLineBreakInput } from "../../ui/ime";
import { questionCopy } from "./copy";
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
}

/** The always-present free-text answer: a line under options, a textarea for optionless questions. */
export function CustomAnswerField({ multiline, enterKeyHint, value, disabled, isImeKey, onChange, onLineBreak }: CustomAnswerFieldProps) {
  const t = useCopy(questionCopy);
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
    className: "question-panel__custom",
    ...stepPart("custom"),
    "aria-label": t("customLabel"),
    placeholder: t("customPlaceholder"),
    value,
    disabled,
    autoComplete: "off",
    spellCheck: true,
    enterKeyHint,
    onKeyDown,
    ref,
  };
  if (multiline) {
    return <textarea {...shared} rows={3} onChange={(event) => onChange(event.target.value)} />;
  }
  return <input {...shared} type="text" onChange={(event) => onChange(event.target.value)} />;
}
