import { describe, expect, it } from "vitest";
import { checkAnswers, isSkip } from "./answers";
import type { QuestionItem } from "./schemas";

const single: QuestionItem = { id: "pkg", question: "Which?", options: [{ label: "pnpm" }, { label: "npm" }] };
const multi: QuestionItem = { id: "feat", question: "Which?", multiSelect: true, options: [{ label: "Tests" }, { label: "Lint" }] };
const open: QuestionItem = { id: "name", question: "Name?" };
const batch = [single, multi, open];

describe("checkAnswers (PROTOCOL /api/respond step 4)", () => {
  it("accepts one item per question in question order", () => {
    expect(checkAnswers(batch, [{ id: "pkg", selected: ["pnpm"] }, { id: "feat", selected: ["Tests", "Lint"], custom: "CI" }, { id: "name", selected: [], custom: "x" }])).toBeNull();
  });

  it("rejects a missing or extra item", () => {
    expect(checkAnswers(batch, [{ id: "pkg", selected: [] }])).toBe("expected 3 answer item(s), one per question, got 1");
  });

  it("rejects items out of question order", () => {
    expect(checkAnswers([single, open], [{ id: "name", selected: [] }, { id: "pkg", selected: [] }])).toBe(
      'answers[0]: id "name" does not match question "pkg" at this position',
    );
  });

  it("rejects an item that is not {id, selected, custom?}", () => {
    expect(checkAnswers([open], [{ id: "name" }])).toBe("answers[0] must be {id: string, selected: string[], custom?: string}");
  });

  it("rejects a label selected twice", () => {
    expect(checkAnswers([multi], [{ id: "feat", selected: ["Tests", "Tests"] }])).toBe('answers[0]: label "Tests" is selected twice');
  });

  it("rejects a label that is not exactly one of the options, case-sensitively", () => {
    expect(checkAnswers([single], [{ id: "pkg", selected: ["PNPM"] }])).toBe('answers[0]: "PNPM" is not an option of question "pkg"');
  });

  it("lets an optionless question take only selected: []", () => {
    expect(checkAnswers([open], [{ id: "name", selected: ["x"] }])).toBe('answers[0]: "x" is not an option of question "name"');
  });

  it("rejects blank custom text", () => {
    expect(checkAnswers([open], [{ id: "name", selected: [], custom: " \n\t" }])).toBe("answers[0]: custom text is blank");
  });

  it("rejects two labels on a single-select question", () => {
    expect(checkAnswers([single], [{ id: "pkg", selected: ["pnpm", "npm"] }])).toBe('answers[0]: question "pkg" is single-select but 2 labels are selected');
  });

  it("rejects a label together with custom text on a single-select question", () => {
    expect(checkAnswers([single], [{ id: "pkg", selected: ["pnpm"], custom: "bun" }])).toBe(
      'answers[0]: question "pkg" is single-select and cannot take both a label and custom text',
    );
  });

  it("accepts a deliberate skip for any kind of question", () => {
    const skips = batch.map((question) => ({ id: question.id, selected: [] }));
    expect(checkAnswers(batch, skips)).toBeNull();
    expect(skips.every(isSkip)).toBe(true);
  });
});
