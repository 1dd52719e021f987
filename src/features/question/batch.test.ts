import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAnswers } from "../../protocol/answers";
import type { QuestionItem } from "../../protocol/schemas";
import { buildAnswers } from "./batch";
import { chooseOption, createDraftState, goToQuestion, skipQuestion, toggleOption, typeCustom, type DraftState } from "./draft";
import { multi, open, single } from "./testing/draft-questions";


describe("buildAnswers", () => {
  it("sends the full label, text as typed and skips in question order", () => {
    let state = chooseOption(createDraftState(), single, "pnpm (Recommended)");
    state = typeCustom(state, open, "  parley  ");
    state = toggleOption(state, multi, "vitest");
    state = toggleOption(state, multi, "eslint");
    state = typeCustom(state, multi, "biome");
    expect(buildAnswers([single, open, multi], state)).toEqual([
      { id: "pkg", selected: ["pnpm (Recommended)"] },
      { id: "name", selected: [], custom: "  parley  " },
      { id: "tools", selected: ["eslint", "vitest"], custom: "biome" },
    ]);
  });

  it("sends single-select text as custom with nothing selected", () => {
    const state = typeCustom(createDraftState(), single, "bun");
    expect(buildAnswers([single], state)).toEqual([{ id: "pkg", selected: [], custom: "bun" }]);
  });

  it("sends a skipped question as an empty selection", () => {
    const state = skipQuestion(chooseOption(createDraftState(), single, "npm"), single);
    expect(buildAnswers([single, open], state)).toEqual([
      { id: "pkg", selected: [] },
      { id: "name", selected: [] },
    ]);
  });

  it("leaves out whitespace-only text", () => {
    const state = typeCustom(toggleOption(createDraftState(), multi, "prettier"), multi, "   ");
    expect(buildAnswers([multi], state)).toEqual([{ id: "tools", selected: ["prettier"] }]);
  });
});

const labelArb = fc.string({ minLength: 1, maxLength: 12 });
const questionArb = fc
  .record({
    options: fc.uniqueArray(labelArb, { maxLength: 6 }),
    multiSelect: fc.boolean(),
  })
  .map(({ options, multiSelect }) => ({ options: options.map((label) => ({ label })), multiSelect }));
const questionsArb = fc
  .array(questionArb, { minLength: 1, maxLength: 5 })
  .map((items): QuestionItem[] => items.map((item, index) => ({ id: `q${index}`, question: `Question ${index}?`, ...item })));

type Action =
  | { kind: "choose"; question: number; option: number; checked: boolean }
  | { kind: "toggle"; question: number; option: number }
  | { kind: "type"; question: number; text: string }
  | { kind: "skip"; question: number }
  | { kind: "go"; index: number };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("choose" as const), question: fc.nat(6), option: fc.nat(7), checked: fc.boolean() }),
  fc.record({ kind: fc.constant("toggle" as const), question: fc.nat(6), option: fc.nat(7) }),
  fc.record({ kind: fc.constant("type" as const), question: fc.nat(6), text: fc.oneof(fc.string(), fc.constantFrom("", " ", "\t\n")) }),
  fc.record({ kind: fc.constant("skip" as const), question: fc.nat(6) }),
  fc.record({ kind: fc.constant("go" as const), index: fc.integer({ min: -2, max: 8 }) }),
);

function apply(questions: QuestionItem[], state: DraftState, action: Action): DraftState {
  if (action.kind === "go") return goToQuestion(state, action.index, questions.length);
  const question = questions[action.question % questions.length]!;
  const optionIndex = "option" in action ? action.option : 0;
  const label = question.options?.[optionIndex % Math.max(1, question.options.length)]?.label ?? "not-an-option";
  switch (action.kind) {
    case "choose":
      return chooseOption(state, question, label, action.checked);
    case "toggle":
      return toggleOption(state, question, label);
    case "type":
      return typeCustom(state, question, action.text);
    case "skip":
      return skipQuestion(state, question);
    default:
      return action satisfies never;
  }
}

describe("buildAnswers over any reachable draft", () => {
  it("always produces a batch the host accepts", () => {
    fc.assert(
      fc.property(questionsArb, fc.array(actionArb, { maxLength: 30 }), (questions, actions) => {
        const state = actions.reduce((current, action) => apply(questions, current, action), createDraftState());
        expect(checkAnswers(questions, buildAnswers(questions, state))).toBeNull();
      }),
    );
  });

  it("keeps answer ids in question order", () => {
    fc.assert(
      fc.property(questionsArb, fc.array(actionArb, { maxLength: 30 }), (questions, actions) => {
        const state = actions.reduce((current, action) => apply(questions, current, action), createDraftState());
        expect(buildAnswers(questions, state).map((answer) => answer.id)).toEqual(questions.map((question) => question.id));
      }),
    );
  });
});
