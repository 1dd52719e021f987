import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import type { AnswerInput, PendingRequest, QuestionItem } from "../../protocol/schemas";
import { acceptingRespond, expectAnswered, heading, installTestClock, renderPanel, reviewItems } from "./panel-test-kit";
import { QuestionPanel } from "./question-panel";

installTestClock();

const server = { kind: "mcp-server", name: "files" } as const;

function requestOf(...questions: QuestionItem[]): PendingRequest {
  return { rpcId: "rpc-1", sessionId: "session-1", createdAt: "2026-12-01T10:00:00.000Z", questions };
}

function textQuestion(input: AnswerInput): QuestionItem {
  return { id: "value", question: "Your value?", input };
}

const field = () => screen.getByRole("textbox", { name: "Type your answer" });

describe("rule answer-input: the free-text field follows the question's input kind", () => {
  it.each([
    [{ kind: "text" }, "TEXTAREA", null, null],
    [{ kind: "email" }, "INPUT", "email", "email"],
    [{ kind: "url" }, "INPUT", "url", "url"],
    [{ kind: "number" }, "INPUT", "text", "decimal"],
    [{ kind: "integer" }, "INPUT", "text", "numeric"],
  ] as const)("%o is a %s of type %s with input mode %s", (input, tag, type, inputMode) => {
    renderPanel(requestOf(textQuestion(input)));
    expect([field().tagName, field().getAttribute("type"), field().getAttribute("inputmode")]).toEqual([tag, type, inputMode]);
  });

  it("uses the browser's date picker for a date, and a text field for a date and time, which needs an offset", () => {
    const { view } = renderPanel(requestOf(textQuestion({ kind: "date" }), { id: "at", question: "When?", input: { kind: "date-time" } }));
    expect(view.container.querySelector("input[data-step-part='custom']")?.getAttribute("type")).toBe("date");
    fireEvent.click(screen.getByRole("button", { name: "Next question" }));
    expect(field().getAttribute("type")).toBe("text");
  });

  it.each([
    [{ kind: "email" }, "name.example.com", "Enter an email address, such as name@example.com."],
    [{ kind: "url" }, "example.com", "Enter a full web address, such as https://example.com."],
    [{ kind: "number" }, "twelve", "Enter a number."],
    [{ kind: "integer" }, "2.5", "Enter a whole number."],
    [{ kind: "number", minimum: 1 }, "0", "Enter 1 or more."],
    [{ kind: "integer", maximum: 10 }, "11", "Enter 10 or less."],
    [{ kind: "text", minLength: 3 }, "ab", "Use at least 3 characters."],
    [{ kind: "text", maxLength: 2 }, "abc", "Use at most 2 characters."],
    [{ kind: "date-time" }, "2026-12-24T18:30", "Enter a date and time with its time zone, as YYYY-MM-DDTHH:MMZ or YYYY-MM-DDTHH:MM+08:00."],
  ] as const)("refuses %o answered %j with the message %j", (input, value, message) => {
    const { view } = renderPanel(requestOf(textQuestion(input)));
    const box = view.container.querySelector<HTMLElement>("[data-step-part='custom']")!;
    fireEvent.change(box, { target: { value } });
    expect(box).toHaveAttribute("aria-invalid", "true");
    expect(box).toHaveAccessibleDescription(message);
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
  });

  it("refuses a wrong email: no Enter, no Submit, nothing sent, until it is fixed", async () => {
    const { user, respond } = renderPanel(requestOf({ ...textQuestion({ kind: "email" }), required: true }));
    await user.type(field(), "ada@example{Enter}");
    expect(screen.getByText("Enter an email address, such as name@example.com.")).toHaveAttribute("aria-live", "polite");
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
    expect(respond).not.toHaveBeenCalled();
    await user.type(field(), ".org");
    expect(field()).not.toHaveAttribute("aria-invalid");
    expect(screen.queryByText(/Enter an email address/)).not.toBeInTheDocument();
    await user.keyboard("{Enter}");
    expectAnswered(respond, [{ id: "value", selected: [], custom: "ada@example.org" }]);
  });

  it("accepts a date as the picker writes it, and a typed date and time", async () => {
    const request = requestOf({ id: "day", question: "Which day?", input: { kind: "date" } }, { id: "at", question: "When exactly?", input: { kind: "date-time" } });
    const { user, respond, view } = renderPanel(request);
    fireEvent.change(view.container.querySelector("[data-step-part='custom']")!, { target: { value: "2026-12-24" } });
    await user.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.change(view.container.querySelector("[data-step-part='custom']")!, { target: { value: "2026-12-24T18:30+01:00" } });
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "day", selected: [], custom: "2026-12-24" },
      { id: "at", selected: [], custom: "2026-12-24T18:30+01:00" },
    ]);
  });

  it("keeps the pager and the stepper from moving on while the answer is invalid", async () => {
    const { user } = renderPanel(requestOf(textQuestion({ kind: "integer" }), { id: "next", question: "And then?" }));
    await user.type(field(), "x");
    expect(screen.getByRole("button", { name: "Next question" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Question 2 of 2, not answered yet" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Question 1 of 2, not answered yet" })).toBeEnabled();
    await user.clear(field());
    await user.type(field(), "7");
    await user.click(screen.getByRole("button", { name: "Next question" }));
    expect(heading()).toBe("And then?");
  });

  it("names an invalid answer on the review step and keeps Submit disabled until it is fixed", async () => {
    sessionStorage.setItem(
      "parley.question-draft.rpc-1",
      JSON.stringify({ drafts: [["value", { selected: [], custom: "nobody", skipped: false }]], index: 2, collapsed: false }),
    );
    const { user, respond } = renderPanel(requestOf(textQuestion({ kind: "email" }), { id: "note", question: "Anything else?" }));
    expect(reviewItems()).toEqual([
      "1. Your value?nobody Enter an email address, such as name@example.com.Change",
      "2. Anything else?Not answered (sent as skipped)Change",
    ]);
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Change question 1" }));
    await user.type(field(), "@example.org");
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "value", selected: [], custom: "nobody@example.org" },
      { id: "note", selected: [] },
    ]);
  });
});

describe("free text off", () => {
  it("shows no text field when the question takes no free text", () => {
    renderPanel(requestOf({ id: "color", question: "Colour?", options: [{ label: "Red" }, { label: "Blue" }], freeText: false }));
    expect(screen.getAllByRole("radio").map((radio) => radio.textContent)).toEqual(["Red1", "Blue2"]);
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
  });
});

describe("rule question-required", () => {
  const required: QuestionItem = { id: "name", question: "Project name?", required: true };

  it("says the question is required and cannot be skipped", () => {
    renderPanel(requestOf(required));
    expect(screen.getByText("An answer is required: this question cannot be skipped.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Skip this question" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
  });

  it("keeps a batch with a required question unanswered from being sent from the review step", async () => {
    const { user, respond } = renderPanel(requestOf(required, { id: "more", question: "Anything else?" }));
    await user.click(screen.getByRole("button", { name: "Next question" }));
    await user.type(field(), "no");
    await user.click(screen.getByRole("button", { name: "Review" }));
    expect(screen.getByText("Some answers are missing or not valid. Change them before sending.")).toBeInTheDocument();
    expect(reviewItems()).toEqual([
      "1. Project name?Required: answer it before sendingChange",
      "2. Anything else?noChange",
    ]);
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Change question 1" }));
    await user.type(field(), "parley");
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "name", selected: [], custom: "parley" },
      { id: "more", selected: [], custom: "no" },
    ]);
  });

  it("lets an optional question of the same batch be skipped", async () => {
    const { user } = renderPanel(requestOf({ id: "more", question: "Anything else?" }, required));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    expect(heading()).toBe("Project name?");
    expect(screen.getByRole("button", { name: "Skip this question" })).toBeDisabled();
  });
});

describe("multi-select bounds", () => {
  const toppings: QuestionItem = {
    id: "toppings",
    question: "Which toppings?",
    multiSelect: true,
    freeText: false,
    minSelected: 2,
    maxSelected: 3,
    options: [{ label: "Cheese" }, { label: "Olives" }, { label: "Basil" }, { label: "Chili" }],
  };

  it("says the bounds, refuses too few and too many, and sends a count within them", async () => {
    const { user, respond } = renderPanel(requestOf(toppings));
    expect(screen.getByText("Choose 2 to 3.")).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "Cheese" }));
    expect(screen.getByText("Choose at least 2 options.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
    for (const name of ["Olives", "Basil", "Chili"]) await user.click(screen.getByRole("checkbox", { name }));
    expect(screen.getByText("Choose at most 3 options.")).toBeInTheDocument();
    await user.keyboard("{Enter}");
    expect(respond).not.toHaveBeenCalled();
    await user.click(screen.getByRole("checkbox", { name: "Olives" }));
    expect(screen.queryByText(/Choose at (least|most)/)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [{ id: "toppings", selected: ["Cheese", "Basil", "Chili"] }]);
  });

  it("says a lone bound", () => {
    const view = renderPanel(requestOf({ ...toppings, maxSelected: undefined })).view;
    expect(screen.getByText("Choose at least 2.")).toBeInTheDocument();
    view.unmount();
    renderPanel(requestOf({ ...toppings, minSelected: undefined }));
    expect(screen.getByText("Choose up to 3.")).toBeInTheDocument();
  });
});

describe("rule question-defaults", () => {
  const plan: QuestionItem = { id: "plan", question: "Which plan?", options: [{ label: "Free" }, { label: "Team" }], defaults: { selected: ["Team"] } };

  it("pre-fills a default option, badged and hinted as the default until the user changes it", async () => {
    const { user, respond } = renderPanel(requestOf(plan));
    expect(screen.getByRole("radio", { name: "Team" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Team" })).toHaveAccessibleDescription("Default");
    expect(screen.getByText("Pre-filled with the default answer. Change it if you like.")).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "Free" }));
    expect(screen.queryByText("Default")).not.toBeInTheDocument();
    expect(screen.queryByText(/Pre-filled/)).not.toBeInTheDocument();
    expectAnswered(respond, [{ id: "plan", selected: ["Free"] }]);
  });

  it("sends the defaults as they are when the user accepts them", async () => {
    const request = requestOf(
      { id: "tags", question: "Tags?", multiSelect: true, options: [{ label: "a" }, { label: "b" }, { label: "c" }], defaults: { selected: ["c", "a", "gone"] } },
      { id: "port", question: "Port?", input: { kind: "integer" }, defaults: { custom: "8080" } },
    );
    const { user, respond } = renderPanel(request);
    expect(screen.getAllByRole("checkbox").map((box) => box.getAttribute("aria-checked"))).toEqual(["true", "false", "true"]);
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(field()).toHaveValue("8080");
    expect(screen.getByText("Pre-filled with the default answer. Change it if you like.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "tags", selected: ["a", "c"] },
      { id: "port", selected: [], custom: "8080" },
    ]);
  });

  it("shows the hidden characters of a suggested answer beside its field, which cannot mark them, until it is changed", async () => {
    const { user } = renderPanel(requestOf({ id: "name", question: "Name?", defaults: { custom: "Ada\u200B\u202ELovelace" } }));
    expect(field()).toHaveValue("Ada\u200B\u202ELovelace");
    const note = screen.getByText("The suggested answer holds hidden characters: Ada⟨U+200B⟩⟨U+202E⟩Lovelace");
    expect(field().getAttribute("aria-describedby")?.split(" ")).toContain(note.id);
    await user.type(field(), "x");
    expect(screen.queryByText(/hidden characters/)).not.toBeInTheDocument();
  });

  it("moves on with Enter on a question before the last, as its Next button does, though the defaults complete every question", async () => {
    const request = requestOf(
      { id: "tags", question: "Tags?", multiSelect: true, options: [{ label: "a" }, { label: "b" }, { label: "c" }], defaults: { selected: ["c", "a"] } },
      { id: "port", question: "Port?", input: { kind: "integer" }, defaults: { custom: "8080" } },
    );
    const { user, respond } = renderPanel(request);
    screen.getByRole("checkbox", { name: "a" }).focus();
    await user.keyboard("{Enter}");
    expect(heading()).toBe("Port?");
    expect(respond).not.toHaveBeenCalled();
  });

  it("lets a saved draft win over the defaults", () => {
    sessionStorage.setItem("parley.question-draft.rpc-1", JSON.stringify({ drafts: [["plan", { selected: ["Free"], custom: "", skipped: false }]], index: 0, collapsed: false }));
    renderPanel(requestOf(plan));
    expect(screen.getByRole("radio", { name: "Free" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Team" })).not.toBeChecked();
  });

  it("dismisses at once when only defaults are filled in", async () => {
    const { user, respond } = renderPanel(requestOf(plan));
    await user.click(screen.getByRole("button", { name: "Dismiss all questions" }));
    expect(respond.mock.calls).toEqual([[{ type: "cancel", rpcId: "rpc-1", sessionId: "session-1" }]]);
  });
});

describe("questions from an MCP server", () => {
  const confirm: QuestionItem = { id: "overwrite", question: "Overwrite the file?", options: [{ label: "Yes" }, { label: "No" }], freeText: false, required: true };

  it("names the server in the header", () => {
    renderPanel({ ...requestOf(confirm), origin: server });
    expect(screen.getByText("files").closest("span")?.parentElement).toHaveTextContent("Asked by the files server");
  });

  it("shows a boolean's Yes and No translated, and sends them as Yes and No", async () => {
    const respond = acceptingRespond();
    render(
      <LocaleProvider initial="zh-CN">
        <QuestionPanel request={{ ...requestOf(confirm), origin: server }} position={{ index: 0, count: 1 }} respond={respond} autoFocus={false} />
      </LocaleProvider>,
    );
    expect(screen.getAllByRole("radio").map((radio) => radio.textContent)).toEqual(["是1", "否2"]);
    await userEvent.setup().click(screen.getByRole("radio", { name: "否" }));
    expectAnswered(respond, [{ id: "overwrite", selected: ["No"] }]);
  });

  it("leaves Yes and No as written when this chat's agent asks", () => {
    render(
      <LocaleProvider initial="zh-CN">
        <QuestionPanel request={requestOf(confirm)} position={{ index: 0, count: 1 }} respond={acceptingRespond()} autoFocus={false} />
      </LocaleProvider>,
    );
    expect(screen.getAllByRole("radio").map((radio) => radio.textContent)).toEqual(["Yes1", "No2"]);
  });

  it("shows the server's message as the first question's detail", async () => {
    renderPanel({ ...requestOf({ ...confirm, detail: "The **build** wants to write `out.txt`." }), origin: server });
    expect(await screen.findByText("build", undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText("out.txt").tagName).toBe("CODE");
  });
});
