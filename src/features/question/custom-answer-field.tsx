import type { Ref } from "react";
import { useMessages } from "../../i18n/i18n";
import { questionMessages } from "./messages";

interface CustomAnswerFieldProps {
  multiline: boolean;
  isLast: boolean;
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement & HTMLTextAreaElement>;
}

/** The always-present free-text answer: a line under options, a textarea for optionless questions. */
export function CustomAnswerField({ multiline, isLast, value, disabled, onChange, ref }: CustomAnswerFieldProps) {
  const t = useMessages(questionMessages);
  const shared = {
    className: "question-panel__custom",
    "aria-label": t("customLabel"),
    placeholder: t("customPlaceholder"),
    value,
    disabled,
    autoComplete: "off",
    spellCheck: true,
    ref,
  };
  if (multiline) {
    return <textarea {...shared} rows={3} onChange={(event) => onChange(event.target.value)} />;
  }
  return <input {...shared} type="text" enterKeyHint={isLast ? "send" : "next"} onChange={(event) => onChange(event.target.value)} />;
}
