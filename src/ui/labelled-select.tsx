import { useId } from "react";
import "./ui.css";

export interface SelectChoice<Value extends string> {
  value: Value;
  label: string;
  /** The language of the label, when it is not the page's. */
  lang?: string;
}

/** A native select with its visible label on one row, the select taking the rest of the width. */
export function LabelledSelect<Value extends string>({ label, value, choices, onChange }: { label: string; value: Value; choices: readonly SelectChoice<Value>[]; onChange: (value: Value) => void }) {
  const id = useId();
  const byValue = new Map(choices.map((choice) => [choice.value as string, choice.value]));
  return (
    <div className="ui-select-row">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="ui-field"
        value={value}
        onChange={(event) => {
          const chosen = byValue.get(event.target.value);
          if (chosen !== undefined) onChange(chosen);
        }}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value} lang={choice.lang}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}
