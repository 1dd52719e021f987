import { useEffect, useRef, useState } from "react";
import { createImeGuard } from "./ime";

export interface InlineEditProps {
  initial: string;
  /** The field's accessible name. */
  label: string;
  /** Saves the trimmed text; a rejection keeps the field open and shows `describe(error)`. */
  onSave: (value: string) => Promise<void>;
  onDone: () => void;
  describe: (error: unknown) => string;
  maxLength?: number;
  className?: string;
}

/**
 * A one-line text field that edits a value in place: Enter or leaving saves, Escape cancels; an unchanged or blank value
 * just closes. IME-safe: the Enter that confirms a candidate and the Escape that closes them are the IME's.
 */
export function InlineEdit({ initial, label, onSave, onDone, describe, maxLength, className }: InlineEditProps) {
  const [value, setValue] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  const settled = useRef(false);
  const [imeGuard] = useState(createImeGuard);

  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);

  const save = async () => {
    if (settled.current || saving) return;
    const trimmed = value.trim();
    if (trimmed === "" || trimmed === initial.trim()) {
      settled.current = true;
      onDone();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSave(trimmed);
      settled.current = true;
      onDone();
    } catch (failure) {
      setError(describe(failure));
      ref.current?.focus();
    } finally {
      setSaving(false);
    }
  };

  return (
    <span className={className ? `ui-inline-edit ${className}` : "ui-inline-edit"}>
      <input
        ref={ref}
        className="ui-field ui-inline-edit__input"
        aria-label={label}
        dir="auto"
        value={value}
        maxLength={maxLength}
        disabled={saving}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !imeGuard.isImeKey(event.nativeEvent)) {
            event.preventDefault();
            void save();
          } else if (event.key === "Escape" && !imeGuard.isImeEscape(event.nativeEvent)) {
            event.preventDefault();
            event.stopPropagation();
            settled.current = true;
            onDone();
          }
        }}
        onCompositionStart={imeGuard.onCompositionStart}
        onCompositionEnd={imeGuard.onCompositionEnd}
        onBlur={() => {
          if (!error) void save();
        }}
      />
      {error && (
        <span role="alert" className="ui-inline-edit__error">
          {error}
        </span>
      )}
    </span>
  );
}
