import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { LocaleProvider } from "../i18n/i18n";
import type { QuestionItem } from "../protocol/schemas";
import { StoryKnobs } from "./demo-knobs";
import type { RequestParts } from "./playground";
import { knobPartsOf, readEdit, recommend, recommendedIndex } from "./story-args";

const QUESTION: QuestionItem = { id: "tool", question: "Which tool?", options: [{ label: "npm (Recommended)", description: "the default" }, { label: "pnpm" }] };

/** The knobs as the workshop holds them: every change is the story's new arguments, and Reset brings the story back. */
function Knobs({ initial, seen }: { initial: RequestParts; seen: RequestParts[] }) {
  const [parts, setParts] = useState(initial);
  return (
    <StoryKnobs
      knobs={{ kind: "request", parts }}
      edited={parts !== initial}
      onChange={(next) => {
        seen.push(next);
        setParts(next);
      }}
      onReset={() => setParts(initial)}
    />
  );
}

function renderKnobs(initial: RequestParts) {
  const seen: RequestParts[] = [];
  render(
    <LocaleProvider initial="en">
      <Knobs initial={initial} seen={seen} />
    </LocaleProvider>,
  );
  return seen;
}

describe("StoryKnobs", () => {
  it("keeps the options' text as typed: a space inside a label and a new line are kept, and each change names the options", async () => {
    const user = userEvent.setup();
    const seen = renderKnobs({ questions: [QUESTION] });
    const field = screen.getByRole("textbox", { name: "Options, one per line" });
    await user.click(field);
    await user.keyboard("{Control>}{End}{/Control}{Enter}Blue sky");
    expect(field).toHaveValue("npm (Recommended)\npnpm\nBlue sky");
    expect(seen.at(-1)).toEqual({
      questions: [{ ...QUESTION, options: [{ label: "npm (Recommended)", description: "the default" }, { label: "pnpm" }, { label: "Blue sky" }] }],
    });
    // A trailing space and an empty last line name the same options: the text keeps them while the options stay.
    await user.keyboard(" {Enter}");
    expect(field).toHaveValue("npm (Recommended)\npnpm\nBlue sky \n");
    expect(seen.at(-1)!.questions[0]!.options!.map((option) => option.label)).toEqual(["npm (Recommended)", "pnpm", "Blue sky"]);
  });

  it("shows the story's options again after Reset, and the Recommended knob's change in the text", async () => {
    const user = userEvent.setup();
    renderKnobs({ questions: [QUESTION] });
    const field = screen.getByRole("textbox", { name: "Options, one per line" });
    await user.click(field);
    await user.keyboard("{Control>}{End}{/Control}{Enter}yarn ");
    await user.click(screen.getByRole("button", { name: "Reset" }));
    expect(field).toHaveValue("npm (Recommended)\npnpm");
    await user.selectOptions(screen.getByRole("combobox", { name: "Recommended option" }), "pnpm");
    expect(field).toHaveValue("npm\npnpm (Recommended)");
  });
});

describe("StoryKnobs with an edit it cannot read", () => {
  it("lists the edit's problems with their paths, offers Reset, and shows no knobs", async () => {
    const user = userEvent.setup();
    const reset: string[] = [];
    render(
      <LocaleProvider initial="en">
        <StoryKnobs knobs={readEdit("{}")} edited onChange={() => undefined} onReset={() => reset.push("reset")} />
      </LocaleProvider>,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("The address's edit of this story cannot be read; Reset returns to the story. 1 problem");
    expect(screen.getByRole("alert")).toHaveTextContent("questions:");
    expect(screen.queryByRole("textbox")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Reset" }));
    expect(reset).toEqual(["reset"]);
  });
});

describe("knobPartsOf", () => {
  it("keeps the knobs of an edit that breaks a rule (an empty question, two labels alike), and gives up only on one they cannot show", () => {
    const broken = { questions: [{ id: "q", question: "", options: [{ label: "Same" }, { label: "Same" }] }] };
    expect(knobPartsOf(JSON.stringify(broken))).toEqual({ kind: "request", parts: broken });
    expect(readEdit(JSON.stringify(broken)).kind).toBe("errors");
    expect(knobPartsOf('{"questions":"x"}')).toMatchObject({ kind: "errors", errors: [{ path: "questions" }] });
    expect(knobPartsOf("null").kind).toBe("errors");
  });
});

describe("StoryKnobs with two questions of one id (an edit breaking that rule)", () => {
  it("changes the question whose knob was typed in, not the other of the same id, and gives React no two children of one key", async () => {
    const user = userEvent.setup();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const seen = renderKnobs({ questions: [{ id: "a", question: "x" }, { id: "a", question: "y" }] });
    await user.type(within(screen.getByRole("group", { name: "Question 2" })).getByRole("textbox", { name: "Question text" }), "z");
    expect(seen.at(-1)?.questions.map((question) => question.question)).toEqual(["x", "yz"]);
    expect(errors.mock.calls.map(([message]) => String(message).slice(0, 60))).toEqual([]);
    errors.mockRestore();
  });
});

describe("the Recommended knob", () => {
  const spelled = (labels: string[]): QuestionItem => ({ id: "q", question: "Q?", options: labels.map((label) => ({ label })) });

  it("reads every spelling of the marker the panel badges", () => {
    expect(recommendedIndex(spelled(["a", "b (recommended)"]))).toBe(1);
    expect(recommendedIndex(spelled(["a（推荐）", "b"]))).toBe(0);
    expect(recommendedIndex(spelled(["a (推荐)", "b"]))).toBe(0);
    expect(recommendedIndex(spelled(["a", "b"]))).toBe(-1);
  });

  it("moves the one marker and keeps the marked option's own spelling", () => {
    expect(recommend(spelled(["a（推荐）", "b"]), 0)).toEqual(spelled(["a（推荐）", "b"]));
    expect(recommend(spelled(["a (recommended)", "b"]), 1)).toEqual(spelled(["a", "b (Recommended)"]));
    expect(recommend(spelled(["a（推荐）", "b"]), -1)).toEqual(spelled(["a", "b"]));
  });
});
