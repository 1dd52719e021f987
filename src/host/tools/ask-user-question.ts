import { z } from "zod";
import { LIMITS, type AnswerItem, type QuestionItem } from "../../protocol/schemas";
import type { UserInteraction } from "../pending/user-interaction";
import type { ToolDefinition, ToolResult } from "./registry";

const OptionArgs = z.strictObject({
  label: z.string().min(1).max(LIMITS.labelChars).describe("Shown to the user and returned as the answer. Append ' (Recommended)' to the option you recommend and put it first."),
  description: z.string().max(LIMITS.descriptionChars).optional().describe("One short line explaining the option."),
});

const QuestionArgs = z.strictObject({
  id: z.string().min(1).max(LIMITS.idChars).describe("Stable id for this question, echoed in its answer."),
  question: z.string().min(1).max(LIMITS.questionChars).describe("The question, short and specific."),
  header: z.string().max(LIMITS.headerChars).optional().describe("A very short heading, e.g. 'Database'."),
  options: z.array(OptionArgs).max(LIMITS.optionsPerQuestion).optional().describe("Choices; the user may also type their own answer. Omit for a free-text question."),
  multi_select: z.boolean().optional().describe("Whether the user may pick more than one option. Defaults to false."),
});

/** The model-facing arguments of `ask_user_question` (snake_case, the model's vocabulary). */
export const AskUserQuestionArgs = z.strictObject({
  questions: z.array(QuestionArgs).min(1).max(LIMITS.questionsPerBatch).describe("One or more related questions, asked in order."),
});
export type AskUserQuestionArgs = z.infer<typeof AskUserQuestionArgs>;

export const ASK_USER_QUESTION_DESCRIPTION = [
  "Ask the human a question and wait for the answer. Use it when you need a choice, a confirmation or a missing fact before you can continue.",
  "Ask concisely and prefer options the user can pick over open questions; the user can always type their own answer instead.",
  "Give each question a stable id; the answer echoes it.",
  "To recommend an option, put it first and append ' (Recommended)' to its label.",
  'The result is JSON: {"answers":[{"id":"...","selected":["<label>", ...],"custom":"<free text, only when typed>"}]}; an empty selected without custom means the user skipped that question.',
].join(" ");

/** Maps the model's arguments to the seam's question items. */
export function toQuestionItems(args: AskUserQuestionArgs): QuestionItem[] {
  return args.questions.map((question) => ({
    id: question.id,
    question: question.question,
    ...(question.header === undefined ? {} : { header: question.header }),
    ...(question.options === undefined
      ? {}
      : { options: question.options.map((option) => ({ label: option.label, ...(option.description === undefined ? {} : { description: option.description }) })) }),
    ...(question.multi_select === undefined ? {} : { multiSelect: question.multi_select }),
  }));
}

/** The compact result text the model reads, keys in the order `id, selected, custom`. */
export function formatAnswers(answers: readonly AnswerItem[]): string {
  return JSON.stringify({
    answers: answers.map((answer) =>
      answer.custom === undefined ? { id: answer.id, selected: answer.selected } : { id: answer.id, selected: answer.selected, custom: answer.custom },
    ),
  });
}

function askResult(answers: AnswerItem[]): ToolResult {
  return { text: formatAnswers(answers), value: { answers }, outcome: { kind: "answered", answers } };
}

export function createAskUserQuestionTool(userInteraction: UserInteraction): ToolDefinition<AskUserQuestionArgs> {
  return {
    name: "ask_user_question",
    description: ASK_USER_QUESTION_DESCRIPTION,
    args: AskUserQuestionArgs,
    async run(args, context) {
      const result = await userInteraction.ask({ questions: toQuestionItems(args), sessionId: context.sessionId, signal: context.signal, onRequested: context.onRequested, origin: context.origin, messageId: context.messageId });
      return askResult(result.answers);
    },
    answered: (_args, answers) => askResult(answers),
  };
}
