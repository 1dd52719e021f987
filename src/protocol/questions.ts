import { z } from "zod/mini";
import { LIMITS } from "./limits";

/** A string of `min`..`max` characters. */
export const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
/** A string of at most `max` characters. */
export const upTo = (max: number) => z.string().check(z.maxLength(max));

// A request's questions and the human's answers (docs/protocol.md, Questions): what an asker sends and what comes back.

/** One selectable answer offered to the user; the label is also the value sent back. */
export const QuestionOption = z.strictObject({
  label: text(1, LIMITS.labelChars),
  description: z.optional(upTo(LIMITS.descriptionChars)),
});
export type QuestionOption = z.infer<typeof QuestionOption>;

/** A caller-declared presentation intent; it never changes the answer encoding. */
export const QuestionIntent = z.strictObject({
  kind: z.literal("plan-review"),
  approve: z.string(),
});
export type QuestionIntent = z.infer<typeof QuestionIntent>;

/** The kinds of free-text answer a question can ask for (docs/protocol.md, rule answer-input). */
export const AnswerInputKind = z.enum(["text", "email", "url", "date", "date-time", "number", "integer"]);
export type AnswerInputKind = z.infer<typeof AnswerInputKind>;

/** What a question's free-text answer must be: its kind and bounds (lengths for text kinds, values for numbers). */
export const AnswerInput = z.strictObject({
  kind: AnswerInputKind,
  minLength: z.optional(z.number()),
  maxLength: z.optional(z.number()),
  minimum: z.optional(z.number()),
  maximum: z.optional(z.number()),
});
export type AnswerInput = z.infer<typeof AnswerInput>;

/** Answers shown pre-filled (and marked as such) when the question first opens. */
export const AnswerDefaults = z.strictObject({
  selected: z.optional(z.array(z.string())),
  custom: z.optional(z.string()),
});
export type AnswerDefaults = z.infer<typeof AnswerDefaults>;

/**
 * One question of a request. The fields after `intent` are protocol 2 and optional; absent, a question
 * is what protocol 1 asked: free text allowed as plain text, skippable, any number of labels when multi-select.
 */
export const QuestionItem = z
  .strictObject({
    id: text(1, LIMITS.idChars),
    question: text(1, LIMITS.questionChars),
    header: z.optional(upTo(LIMITS.headerChars)),
    detail: z.optional(upTo(LIMITS.detailChars)),
    options: z.optional(z.array(QuestionOption).check(z.maxLength(LIMITS.optionsPerQuestion))),
    multiSelect: z.optional(z.boolean()),
    intent: z.optional(QuestionIntent),
    /** Whether a free-text answer is offered; absent means true. */
    freeText: z.optional(z.boolean()),
    /** What the free-text answer must be; absent means plain text. */
    input: z.optional(AnswerInput),
    /** A required question cannot be skipped; absent means false. */
    required: z.optional(z.boolean()),
    /** Bounds on how many labels a multi-select answer holds. */
    minSelected: z.optional(z.number()),
    maxSelected: z.optional(z.number()),
    defaults: z.optional(AnswerDefaults),
  })
  .check(z.superRefine((item, ctx) => {
    const seen = new Set<string>();
    item.options?.forEach((option, index) => {
      if (seen.has(option.label)) {
        ctx.addIssue({
          code: "custom",
          path: ["options", index, "label"],
          message: `option label "${option.label}" appears twice in question "${item.id}"`,
        });
      }
      seen.add(option.label);
    });
  }));
export type QuestionItem = z.infer<typeof QuestionItem>;

/** A batch of 1..20 questions with unique ids. */
export const Questions = z
  .array(QuestionItem)
  .check(z.minLength(1), z.maxLength(LIMITS.questionsPerBatch), z.superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.id)) {
        ctx.addIssue({ code: "custom", path: [index, "id"], message: `question id "${item.id}" appears twice` });
      }
      seen.add(item.id);
    });
  }));
export type Questions = z.infer<typeof Questions>;

/** The answer to one question: chosen labels and, optionally, free text. */
export const AnswerItem = z.object({
  id: z.string(),
  selected: z.array(z.string()),
  custom: z.optional(z.string()),
});
export type AnswerItem = z.infer<typeof AnswerItem>;
