import fc from "fast-check";
import type { AnswerItem, QuestionItem } from "../../protocol/schemas";

const label = fc.string({ minLength: 1, maxLength: 8 });
const nonBlank = fc.string({ minLength: 1, maxLength: 8 }).filter((text) => text.trim() !== "");

/** A batch of questions with unique ids and, per question, unique labels. */
export const questionBatch = fc
  .uniqueArray(fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), multiSelect: fc.boolean(), labels: fc.uniqueArray(label, { maxLength: 5 }) }), {
    minLength: 1,
    maxLength: 5,
    selector: (item) => item.id,
  })
  .map((items) =>
    items.map(
      (item): QuestionItem => ({
        id: item.id,
        question: `question ${item.id}`,
        ...(item.labels.length ? { options: item.labels.map((text) => ({ label: text })) } : {}),
        ...(item.multiSelect ? { multiSelect: true } : {}),
      }),
    ),
  );

/** A valid answer to one question, built by the rules. */
export function validAnswer(question: QuestionItem): fc.Arbitrary<AnswerItem> {
  const labels = (question.options ?? []).map((option) => option.label);
  const skip = fc.constant<AnswerItem>({ id: question.id, selected: [] });
  const custom = nonBlank.map((text): AnswerItem => ({ id: question.id, selected: [], custom: text }));
  if (labels.length === 0) return fc.oneof(skip, custom);
  if (question.multiSelect) {
    return fc
      .tuple(fc.shuffledSubarray(labels), fc.option(nonBlank, { nil: undefined }))
      .map(([selected, text]): AnswerItem => (text === undefined ? { id: question.id, selected } : { id: question.id, selected, custom: text }));
  }
  return fc.oneof(skip, custom, fc.constantFrom(...labels).map((chosen): AnswerItem => ({ id: question.id, selected: [chosen] })));
}

export const answeredBatch = questionBatch.chain((questions) => fc.tuple(fc.constant(questions), fc.tuple(...questions.map(validAnswer))));

type Mutation = "reorder" | "unknown-label" | "duplicate" | "blank-custom" | "label-and-custom";

/** Breaks exactly one rule in a valid answer batch, or returns null when that mutation does not apply. */
export function mutate(questions: QuestionItem[], answers: AnswerItem[], mutation: Mutation, at: number): AnswerItem[] | null {
  const copy = answers.map((answer) => ({ ...answer, selected: [...answer.selected] }));
  const index = at % questions.length;
  const question = questions[index]!;
  const labels = (question.options ?? []).map((option) => option.label);
  switch (mutation) {
    case "reorder": {
      if (copy.length < 2) return null;
      const other = (index + 1) % copy.length;
      [copy[index], copy[other]] = [copy[other]!, copy[index]!];
      return copy;
    }
    case "unknown-label": {
      const unknown = `${labels.join("")}?unknown`;
      copy[index]!.selected.push(unknown);
      return copy;
    }
    case "duplicate": {
      if (labels.length === 0) return null;
      copy[index] = { id: question.id, selected: [labels[0]!, labels[0]!] };
      return copy;
    }
    case "blank-custom": {
      copy[index]!.custom = " ".repeat((at % 3) + 1);
      return copy;
    }
    case "label-and-custom": {
      if (labels.length === 0 || question.multiSelect) return null;
      copy[index] = { id: question.id, selected: [labels[0]!], custom: "typed" };
      return copy;
    }
    default:
      return mutation satisfies never;
  }
}

export const mutation = fc.constantFrom<Mutation>("reorder", "unknown-label", "duplicate", "blank-custom", "label-and-custom");
