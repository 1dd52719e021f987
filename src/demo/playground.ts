import { z } from "zod/mini";
import { Questions, type QuestionItem } from "../protocol/schemas";

/** One problem with pasted arguments: where (`questions.0.options.1.label`) and what. */
export interface PlaygroundError {
  path: string;
  message: string;
}

export type PlaygroundResult = { kind: "questions"; questions: QuestionItem[] } | { kind: "errors"; errors: PlaygroundError[] };

/** The shape of `ask_user_question`'s arguments, in the model's snake_case; sizes and uniqueness are the protocol's. */
const ModelArgs = z.strictObject({
  questions: z.array(
    z.strictObject({
      id: z.string(),
      question: z.string(),
      header: z.optional(z.string()),
      options: z.optional(z.array(z.strictObject({ label: z.string(), description: z.optional(z.string()) }))),
      multi_select: z.optional(z.boolean()),
    }),
  ),
});

/** What the playground starts with: a small valid batch to edit. */
export const PLAYGROUND_EXAMPLE = JSON.stringify(
  {
    questions: [
      { id: "pkg", header: "Tooling", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
      { id: "name", question: "What should the project be called?" },
    ],
  },
  null,
  2,
);

function issuesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): PlaygroundError[] {
  return issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}

/** Reads pasted `ask_user_question` arguments: the batch the panel would show, or every error with its path. */
export function readPlayground(json: string): PlaygroundResult {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { kind: "errors", errors: [{ path: "", message: `not JSON: ${(error as Error).message}` }] };
  }
  const args = ModelArgs.safeParse(value);
  if (!args.success) return { kind: "errors", errors: issuesOf(args.error.issues) };
  const items = args.data.questions.map(({ multi_select, ...rest }) => (multi_select === undefined ? rest : { ...rest, multiSelect: multi_select }));
  const questions = Questions.safeParse(items);
  if (!questions.success) return { kind: "errors", errors: issuesOf(questions.error.issues).map((error) => ({ ...error, path: `questions.${error.path}`.replace(/\.$/, "") })) };
  return { kind: "questions", questions: questions.data };
}
