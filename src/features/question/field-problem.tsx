import { useCopy } from "../../i18n/i18n";
import type { InputProblem } from "../../protocol/answers";
import { questionCopy, type QuestionMessageKey } from "./copy";
import type { FieldProblem } from "./field-rules";

type Translate = (key: QuestionMessageKey, values?: Record<string, string | number>) => string;

function inputProblemText(t: Translate, problem: InputProblem): string {
  switch (problem.rule) {
    case "email":
      return t("problemEmail");
    case "url":
      return t("problemUrl");
    case "date":
      return t("problemDate");
    case "date-time":
      return t("problemDateTime");
    case "number":
      return t("problemNumber");
    case "integer":
      return t("problemInteger");
    case "minLength":
      return t("problemMinLength", { limit: problem.limit });
    case "maxLength":
      return t("problemMaxLength", { limit: problem.limit });
    case "minimum":
      return t("problemMinimum", { limit: problem.limit });
    case "maximum":
      return t("problemMaximum", { limit: problem.limit });
    default:
      return problem satisfies never;
  }
}

/** The translated sentence for a field problem; the host's English rule text is never shown. */
export function fieldProblemText(t: Translate, problem: FieldProblem): string {
  switch (problem.kind) {
    case "input":
      return inputProblemText(t, problem.problem);
    case "too-few":
      return t("problemTooFew", { min: problem.min });
    case "too-many":
      return t("problemTooMany", { max: problem.max });
    case "required":
      return t("problemRequired");
    default:
      return problem satisfies never;
  }
}

/** A polite live line under a field: empty while the draft is fine, the problem's sentence when it is not. */
export function FieldProblemLine({ id, problem }: { id: string; problem: FieldProblem | null }) {
  const t = useCopy(questionCopy);
  return (
    <p id={id} className="question-panel__problem" aria-live="polite">
      {problem ? fieldProblemText(t, problem) : ""}
    </p>
  );
}
