import type { AnswerInput } from "../../protocol/schemas";
import type { QuestionMessageKey } from "./copy";

type T = (key: QuestionMessageKey, values?: Record<string, string | number>) => string;

/** The bounds a typed answer must keep, said before any is broken (`2 to 50 characters`, `1 to 30`); null when it has none. */
export function boundsHint(t: T, input: AnswerInput | undefined): string | null {
  if (!input) return null;
  const numeric = input.kind === "number" || input.kind === "integer";
  const [min, max] = numeric ? [input.minimum, input.maximum] : [input.minLength, input.maxLength];
  const whole = input.kind === "integer" ? "Whole" : "";
  if (numeric) {
    if (min !== undefined && max !== undefined) return t(`bounds${whole}Between` as QuestionMessageKey, { min, max });
    if (min !== undefined) return t(`bounds${whole}AtLeast` as QuestionMessageKey, { min });
    if (max !== undefined) return t(`bounds${whole}AtMost` as QuestionMessageKey, { max });
    return input.kind === "integer" ? t("boundsWhole") : null;
  }
  if (min !== undefined && max !== undefined) return t("boundsLength", { min, max });
  if (min !== undefined) return t("boundsMinLength", { min });
  if (max !== undefined) return t("boundsMaxLength", { max });
  return null;
}

/** Options past the nine that 1–9 reach: the list scrolls and the arrows, Home and End reach the rest. */
export const KEYED_OPTIONS = 9;
