import { z } from "zod/mini";
import { approvalQuestions } from "../protocol/approval";
import { parseRecommendation } from "../protocol/recommendation";
import { Questions, QuestionOrigin, ToolApproval, type QuestionItem } from "../protocol/schemas";
import type { PlaygroundResult, RequestParts } from "./playground";
import type { SlotStory } from "./stories";

/** The arguments the Controls panel edits: the parts of the story's first request. */
export function storyParts(story: SlotStory): RequestParts {
  const { questions, origin, approval } = story.requests[0]!;
  return { questions, ...(origin ? { origin } : {}), ...(approval ? { approval } : {}) };
}

const EditedParts = z.strictObject({ questions: z.unknown(), origin: z.optional(QuestionOrigin), approval: z.optional(ToolApproval) });

function issuesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[], prefix: readonly PropertyKey[] = []) {
  return issues.map((issue) => ({ path: [...prefix, ...issue.path].map(String).join("."), message: issue.message }));
}

/** What the Controls need of a question to show it: its text fields and options as text; none of the protocol's rules (lengths, unique labels). */
const KnobQuestions = z.array(z.looseObject({ id: z.string(), question: z.string(), options: z.optional(z.array(z.looseObject({ label: z.string() }))) }));

/**
 * Reads edited arguments from the address: the parts the slot shows, or every problem with its path. An approval's
 * questions always follow its tool call. `rules` false reads them as the Controls need them, checked only so far as the
 * knobs show them (KnobQuestions): an edit breaking a rule keeps its knobs, and the preview lists its problems.
 */
export function readEdit(json: string, rules = true): PlaygroundResult {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { kind: "errors", errors: [{ path: "", message: `not JSON: ${(error as Error).message}` }] };
  }
  const shape = EditedParts.safeParse(value);
  if (!shape.success) return { kind: "errors", errors: issuesOf(shape.error.issues) };
  const { origin, approval } = shape.data;
  if (approval) return { kind: "request", parts: { questions: approvalQuestions(approval), origin: origin ?? { kind: "mcp-server", name: approval.server }, approval } };
  const questions = (rules ? Questions : KnobQuestions).safeParse(shape.data.questions);
  if (!questions.success) return { kind: "errors", errors: issuesOf(questions.error.issues, ["questions"]) };
  return { kind: "request", parts: { questions: questions.data as QuestionItem[], ...(origin ? { origin } : {}) } };
}

/** Edited arguments as the Controls show them (readEdit without the protocol's rules), or every problem of an edit they cannot show. */
export const knobPartsOf = (json: string): PlaygroundResult => readEdit(json, false);

/** Which option the panel badges as recommended (the first whose label ends in a marker it reads, in any spelling), or -1. */
export function recommendedIndex(question: QuestionItem): number {
  return (question.options ?? []).findIndex((option) => parseRecommendation(option.label).recommended);
}

/** Marks one option recommended and no other (-1: none); the marked option keeps its own spelling of the marker. */
export function recommend(question: QuestionItem, index: number): QuestionItem {
  if (!question.options) return question;
  return {
    ...question,
    options: question.options.map((option, at) => {
      const { display, recommended } = parseRecommendation(option.label);
      if (at === index) return recommended ? option : { ...option, label: `${display} (Recommended)` };
      return recommended ? { ...option, label: display } : option;
    }),
  };
}

/** The labels the options knob's text names: one per line, trimmed; blank lines name none. */
export function optionLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** Options from one label per line; an option keeps its description while its line keeps its place. */
export function withOptionLines(question: QuestionItem, text: string): QuestionItem {
  const labels = optionLines(text);
  const { options: before = [], ...rest } = question;
  if (labels.length === 0) {
    const { multiSelect: _multi, minSelected: _min, maxSelected: _max, ...optionless } = rest;
    return optionless;
  }
  return { ...rest, options: labels.map((label, index) => ({ ...before[index], label })) };
}

/** A number field's text as an optional bound: blank removes it. */
export function boundOf(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
