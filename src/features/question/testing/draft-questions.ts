import type { QuestionItem } from "../../../protocol/schemas";

/** A single-select question whose first option is recommended. */
export const single: QuestionItem = { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] };
/** A multi-select question of three options. */
export const multi: QuestionItem = {
  id: "tools",
  question: "Which tools?",
  multiSelect: true,
  options: [{ label: "eslint" }, { label: "prettier" }, { label: "vitest" }],
};
/** A question without options: typed text only. */
export const open: QuestionItem = { id: "name", question: "Project name?" };
