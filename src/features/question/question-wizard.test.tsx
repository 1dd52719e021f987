import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { PendingRequest } from "../../protocol/schemas";
import { acceptingRespond, installTestClock, expectAnswered, heading, renderPanel as renderRequest, reviewItems } from "./panel-test-kit";

const batch: PendingRequest = {
  rpcId: "rpc-1",
  sessionId: "session-1",
  createdAt: "2026-11-30T10:00:00.000Z",
  questions: [
    {
      id: "pkg",
      header: "Tooling",
      question: "Which package manager?",
      options: [{ label: "pnpm (Recommended)", description: "Fast and disk-efficient" }, { label: "npm" }, { label: "yarn" }],
    },
    { id: "name", question: "What should the project be called?" },
    { id: "features", question: "Which features?", multiSelect: true, options: [{ label: "Auth" }, { label: "Billing" }, { label: "Search" }] },
  ],
};

const clock = installTestClock();

const renderPanel = (request: PendingRequest = batch) => renderRequest(request);

describe("question wizard layout", () => {
  it("shows the header, the question as the region's name and the stepper", () => {
    renderPanel();
    expect(screen.getByRole("region", { name: "Which package manager?" })).toBeInTheDocument();
    expect(screen.getAllByText("Tooling").length).toBeGreaterThan(0);
    const steps = screen.getByRole("list", { name: "Questions" });
    expect(Array.from(steps.querySelectorAll("button")).map((step) => [step.getAttribute("aria-label"), step.getAttribute("aria-current")])).toEqual([
      ["Question 1 of 3, not answered yet", "step"],
      ["Question 2 of 3, not answered yet", null],
      ["Question 3 of 3, not answered yet", null],
      ["Review your answers", null],
    ]);
    expect(screen.getByRole("button", { name: "Previous question" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next question" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    expect(screen.getByRole("status")).toHaveTextContent("");
    expect(screen.queryByText(/Request \d of \d/)).not.toBeInTheDocument();
  });

  it("shows the request position when several requests are pending", () => {
    renderRequest(batch, acceptingRespond(), 2);
    expect(screen.getByText("Request 1 of 2")).toBeInTheDocument();
  });

  it("shows a recommended option without its suffix, with a badge, and never preselects it", () => {
    renderPanel();
    const pnpm = screen.getByRole("radio", { name: "pnpm" });
    expect(pnpm).not.toBeChecked();
    expect(pnpm).toHaveAccessibleDescription("Recommended Fast and disk-efficient");
    expect(screen.getByText("Recommended")).toBeInTheDocument();
    expect(screen.queryByText("pnpm (Recommended)")).not.toBeInTheDocument();
    expect(screen.getAllByRole("radio").filter((radio) => radio.getAttribute("aria-checked") === "true")).toEqual([]);
  });

  it("lists multi-select options as checkboxes in a group named by the question", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("button", { name: "Next question" }));
    await user.click(screen.getByRole("button", { name: "Next question" }));
    const group = screen.getByRole("group", { name: "Which features?" });
    expect(group).toContainElement(screen.getByRole("checkbox", { name: "Auth" }));
    expect(screen.getAllByRole("checkbox").map((box) => box.getAttribute("aria-checked"))).toEqual(["false", "false", "false"]);
  });

  it("announces the step as the user moves", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(screen.getByText("Question 2 of 3: What should the project be called?")).toHaveAttribute("aria-live", "polite");
  });
});

describe("single-select advance", () => {
  it("advances when an option is clicked", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(heading()).toBe("What should the project be called?");
    expect(screen.getByRole("button", { name: "Question 2 of 3, not answered yet" })).toHaveAttribute("aria-current", "step");
    expect(screen.getByRole("button", { name: "Question 1 of 3, answered" })).not.toHaveAttribute("aria-current");
  });

  it("advances when Space is pressed on an option", async () => {
    const { user } = renderPanel();
    screen.getByRole("radio", { name: "yarn" }).focus();
    await user.keyboard(" ");
    expect(heading()).toBe("What should the project be called?");
  });

  it("advances when Enter is pressed on an option", async () => {
    const { user } = renderPanel();
    screen.getByRole("radio", { name: "yarn" }).focus();
    await user.keyboard("{Enter}");
    expect(heading()).toBe("What should the project be called?");
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(screen.getByRole("radio", { name: "yarn" })).toBeChecked();
  });

  it("advances when an option's number key is pressed", async () => {
    const { user } = renderPanel();
    screen.getByRole("radio", { name: "pnpm" }).focus();
    await user.keyboard("2");
    expect(heading()).toBe("What should the project be called?");
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(screen.getByRole("radio", { name: "npm" })).toBeChecked();
  });

  it("moves the selection with arrow keys without advancing", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "pnpm" }));
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    screen.getByRole("radio", { name: "pnpm" }).focus();
    await user.keyboard("{ArrowDown>}");
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    await user.keyboard("{/ArrowDown}");
    expect(screen.getByRole("radio", { name: "npm" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "npm" })).toHaveFocus();
    expect(heading()).toBe("Which package manager?");
  });

  it("never submits when a batch's last question's option is chosen", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[1]!, batch.questions[0]!] };
    const { user, respond } = renderPanel(request);
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "demo");
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(respond).not.toHaveBeenCalled();
    expect(screen.getByRole("radio", { name: "npm" })).toBeChecked();
  });

  it("answers a one-question single-select on a pick, with no Submit click", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[0]!] };
    const { user, respond } = renderPanel(request);
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expectAnswered(respond, [{ id: "pkg", selected: ["npm"] }]);
  });

  it("waits for Submit on a one-question single-select when the pick replaces typed text", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[0]!] };
    const { user, respond } = renderPanel(request);
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "yarn");
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(respond).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [{ id: "pkg", selected: ["npm"] }]);
  });
});

describe("focus while stepping", () => {
  it("keeps focus on the pager while paging with it, and moves it to the options at the end", async () => {
    const { user } = renderPanel();
    screen.getByRole("button", { name: "Next question" }).focus();
    await user.keyboard("{Enter}");
    expect(heading()).toBe("What should the project be called?");
    expect(screen.getByRole("button", { name: "Next question" })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(heading()).toBe("Which features?");
    expect(screen.getByRole("checkbox", { name: "Auth" })).toHaveFocus();
  });

  it("moves focus into the step a click on the pager opens, so what is typed next lands there", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("button", { name: "Next question" }));
    expect(heading()).toBe("What should the project be called?");
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    expect(field).toHaveFocus();
    await user.keyboard("parley");
    expect(field).toHaveValue("parley");
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(heading()).toBe("Which package manager?");
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
  });
});

describe("custom answers", () => {
  it("shows a textarea for an optionless question and a line under options", async () => {
    const { user } = renderPanel();
    expect(screen.getByRole("textbox", { name: "Type your answer" }).tagName).toBe("INPUT");
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(screen.getByRole("textbox", { name: "Type your answer" }).tagName).toBe("TEXTAREA");
  });

  it("focuses the textarea when an optionless question is shown", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveFocus();
  });

  it("clears a single-select choice when text is typed, and the text when an option is chosen", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "bun");
    expect(screen.getByRole("radio", { name: "npm" })).not.toBeChecked();
    await user.click(screen.getByRole("button", { name: "Previous question" }).ownerDocument.body);
    screen.getByRole("radio", { name: "yarn" }).focus();
    await user.keyboard("{Enter}");
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(screen.getByRole("radio", { name: "yarn" })).toBeChecked();
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveValue("");
  });

  it("keeps Next disabled for whitespace-only text and enables it for real text", async () => {
    const { user } = renderPanel();
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    await user.type(field, "   ");
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    await user.type(field, "bun");
    expect(screen.getByRole("button", { name: "Next" })).toBeEnabled();
  });

  it("combines checked options and text on a multi-select question", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[2]!] };
    const { user, respond } = renderPanel(request);
    await user.click(screen.getByRole("checkbox", { name: "Search" }));
    await user.click(screen.getByRole("checkbox", { name: "Auth" }));
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "Exports");
    expect(screen.getByRole("checkbox", { name: "Auth" })).toBeChecked();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [{ id: "features", selected: ["Auth", "Search"], custom: "Exports" }]);
  });

  it("toggles a multi-select option with its number key", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[2]!] };
    const { user } = renderPanel(request);
    screen.getByRole("checkbox", { name: "Auth" }).focus();
    await user.keyboard("3");
    expect(screen.getByRole("checkbox", { name: "Search" })).toBeChecked();
    await user.keyboard("3");
    expect(screen.getByRole("checkbox", { name: "Search" })).not.toBeChecked();
  });
});

describe("submitting the batch", () => {
  it("sends the whole batch in question order with the full recommended label", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "pnpm" }));
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "parley ");
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("checkbox", { name: "Billing" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "pkg", selected: ["pnpm (Recommended)"] },
      { id: "name", selected: [], custom: "parley " },
      { id: "features", selected: ["Billing"] },
    ]);
  });

  it("opens the review step naming the unanswered question instead of submitting after paging ahead", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Next question" }));
    await user.click(screen.getByRole("checkbox", { name: "Auth" }));
    expect(screen.queryByRole("button", { name: "Submit" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Review" }));
    expect(respond).not.toHaveBeenCalled();
    expect(screen.getByRole("region", { name: "Review your answers" })).toBeInTheDocument();
    expect(screen.getByText("1 not answered: they are sent as skipped unless you change them.")).toBeInTheDocument();
    expect(reviewItems()).toEqual([
      "1. Which package manager?npmChange",
      "2. What should the project be called?Not answered (sent as skipped)Change",
      "3. Which features?AuthChange",
    ]);
    await user.click(screen.getByRole("button", { name: "Change question 2" }));
    expect(heading()).toBe("What should the project be called?");
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "parley");
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "pkg", selected: ["npm"] },
      { id: "name", selected: [], custom: "parley" },
      { id: "features", selected: ["Auth"] },
    ]);
  });

  it("sends never-visited questions as skips from the review step once the user submits there", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("button", { name: "Question 3 of 3, not answered yet" }));
    await user.click(screen.getByRole("checkbox", { name: "Search" }));
    await user.click(screen.getByRole("button", { name: "Review" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "pkg", selected: [] },
      { id: "name", selected: [] },
      { id: "features", selected: ["Search"] },
    ]);
  });

  it("keeps Submit as disabled as Next on an empty optionless question", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[1]!] };
    const { user } = renderPanel(request);
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "  ");
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "x");
    expect(screen.getByRole("button", { name: "Submit" })).toBeEnabled();
  });

  it("skips a question, keeping the other drafts, and reviews before sending when the last is skipped", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "yarn" }));
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "draft text");
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    expect(heading()).toBe("Which features?");
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveValue("");
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(screen.getByRole("radio", { name: "yarn" })).toBeChecked();
    await user.click(screen.getByRole("button", { name: "Next question" }));
    await user.click(screen.getByRole("button", { name: "Next question" }));
    await user.click(screen.getByRole("checkbox", { name: "Auth" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    expect(respond).not.toHaveBeenCalled();
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("Review your answers");
    expect(screen.getByText("This is what will be sent.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "pkg", selected: ["yarn"] },
      { id: "name", selected: [] },
      { id: "features", selected: [] },
    ]);
  });

  it("treats Enter in the custom field as the primary button", async () => {
    const { user, respond } = renderPanel();
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "bun{Enter}");
    expect(heading()).toBe("What should the project be called?");
    expect(respond).not.toHaveBeenCalled();
  });

  it("leaves Enter on a link in the detail to the link", async () => {
    const request: PendingRequest = {
      ...batch,
      questions: [{ ...batch.questions[1]!, detail: "See [the guide](https://example.com/guide)." }, batch.questions[2]!],
    };
    const { user, respond } = renderPanel(request);
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "parley");
    const link = await screen.findByRole("link", { name: "the guide" });
    fireEvent.keyDown(link, { key: "Enter" });
    expect(heading()).toBe("What should the project be called?");
    expect(respond).not.toHaveBeenCalled();
  });

  it("keeps Shift+Enter as a newline in the textarea", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "line one{Shift>}{Enter}{/Shift}line two");
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveValue("line one\nline two");
    expect(heading()).toBe("What should the project be called?");
    expect(respond).not.toHaveBeenCalled();
  });

  it("takes Enter as the primary button once every question is answered or skipped: Next before the last, the review on it", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    await user.click(screen.getByRole("checkbox", { name: "Search" }));
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    for (const [from, to] of [
      ["Which package manager?", "What should the project be called?"],
      ["What should the project be called?", "Which features?"],
      ["Which features?", "Review your answers"],
    ]) {
      screen.getByRole("heading", { name: from }).focus();
      await user.keyboard("{Enter}");
      expect([heading(), respond.mock.calls.length]).toEqual([to, 0]);
    }
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "pkg", selected: ["npm"] },
      { id: "name", selected: [] },
      { id: "features", selected: ["Search"] },
    ]);
  });
});

describe("IME composition", () => {
  it("ignores an Enter the browser marks as composing", () => {
    const { respond } = renderPanel();
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.change(field, { target: { value: "日本" } });
    fireEvent.keyDown(field, { key: "Enter", isComposing: true });
    expect(heading()).toBe("Which package manager?");
    expect(respond).not.toHaveBeenCalled();
  });

  it("takes an Enter with key code 229 outside any composition, as Gboard sends it", () => {
    renderPanel();
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.change(field, { target: { value: "bun" } });
    fireEvent.keyDown(field, { key: "Enter", keyCode: 229 });
    expect(heading()).toBe("What should the project be called?");
  });

  it("ignores an Enter with key code 229 while a composition is open", () => {
    renderPanel();
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.compositionStart(field);
    fireEvent.change(field, { target: { value: "日本" } });
    fireEvent.keyDown(field, { key: "Enter", keyCode: 229 });
    expect(heading()).toBe("Which package manager?");
  });

  it("takes a line-break input with no Enter keydown as Enter, as some Android keyboards send it", () => {
    renderPanel();
    fireEvent.click(screen.getByRole("radio", { name: "npm" }));
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.change(field, { target: { value: "parley" } });
    fireEvent.keyDown(field, { key: "Unidentified", keyCode: 229 });
    const input = new InputEvent("beforeinput", { inputType: "insertLineBreak", bubbles: true, cancelable: true });
    fireEvent(field, input);
    expect(input.defaultPrevented).toBe(true);
    expect(heading()).toBe("Which features?");
  });

  it("keeps a line-break input after Shift+Enter as a newline in the textarea", () => {
    renderPanel();
    fireEvent.click(screen.getByRole("radio", { name: "npm" }));
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.keyDown(field, { key: "Enter", shiftKey: true });
    const input = new InputEvent("beforeinput", { inputType: "insertLineBreak", bubbles: true, cancelable: true });
    fireEvent(field, input);
    expect(input.defaultPrevented).toBe(false);
    expect(heading()).toBe("What should the project be called?");
  });

  it("reads number shortcuts from the physical key, so a full-width IME digit still chooses", () => {
    renderPanel();
    const radio = screen.getByRole("radio", { name: "pnpm" });
    fireEvent.keyDown(radio, { key: "２", code: "Digit2" });
    expect(heading()).toBe("What should the project be called?");
  });

  it("never takes a number shortcut while composing", () => {
    renderPanel();
    const radio = screen.getByRole("radio", { name: "pnpm" });
    fireEvent.keyDown(radio, { key: "２", code: "Digit2", isComposing: true });
    fireEvent.compositionStart(radio);
    fireEvent.keyDown(radio, { key: "2", code: "Digit2" });
    expect(heading()).toBe("Which package manager?");
    expect(screen.getByRole("radio", { name: "npm" })).not.toBeChecked();
  });

  it("ignores an Enter in the same tick as compositionend, then accepts the next one", async () => {
    renderPanel();
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.compositionStart(field);
    fireEvent.change(field, { target: { value: "日本" } });
    fireEvent.compositionEnd(field);
    fireEvent.keyDown(field, { key: "Enter", keyCode: 13 });
    expect(heading()).toBe("Which package manager?");
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(field, { key: "Enter", keyCode: 13 });
    expect(heading()).toBe("What should the project be called?");
  });

  it("does not collapse on an Escape during composition", () => {
    renderPanel();
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.compositionStart(field);
    fireEvent.keyDown(field, { key: "Escape", isComposing: true });
    expect(screen.getByRole("button", { name: "Collapse the question card" })).toHaveAttribute("aria-expanded", "true");
  });
});

describe("the last question", () => {
  it("submits with Enter on a one-question single-select's radio", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[0]!] };
    const { user, respond } = renderPanel(request);
    screen.getByRole("radio", { name: "npm" }).focus();
    expect(respond).not.toHaveBeenCalled();
    await user.keyboard("{Enter}");
    expectAnswered(respond, [{ id: "pkg", selected: ["npm"] }]);
  });

  it("submits with Enter on a checked checkbox of the last question", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[2]!] };
    const { user, respond } = renderPanel(request);
    await user.click(screen.getByRole("checkbox", { name: "Billing" }));
    await user.keyboard("{Enter}");
    expectAnswered(respond, [{ id: "features", selected: ["Billing"] }]);
  });

  it("shows no stepper and no pager for a single question", () => {
    renderPanel({ ...batch, questions: [batch.questions[0]!] });
    expect(screen.queryByRole("list", { name: "Questions" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Previous question" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Next question" })).not.toBeInTheDocument();
  });
});

describe("stepper", () => {
  it("marks answered and skipped questions and jumps to a question when its step is clicked", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    expect(screen.getAllByRole("button", { name: /^Question \d of 3/ }).map((step) => [step.getAttribute("aria-label"), step.getAttribute("aria-current")])).toEqual([
      ["Question 1 of 3, answered", null],
      ["Question 2 of 3, skipped", null],
      ["Question 3 of 3, not answered yet", "step"],
    ]);
    await user.click(screen.getByRole("button", { name: "Question 1 of 3, answered" }));
    expect(heading()).toBe("Which package manager?");
    expect(screen.getByRole("button", { name: "Question 1 of 3, answered" })).toHaveAttribute("aria-current", "step");
  });
});

describe("double taps", () => {
  it("ignores a second choice in the new step's first 300 ms after a single-select advance, and takes one after", () => {
    const request: PendingRequest = {
      ...batch,
      questions: [batch.questions[0]!, { id: "ok", question: "Proceed?", options: [{ label: "Yes" }, { label: "No" }] }, batch.questions[1]!],
    };
    const { respond } = renderPanel(request);
    clock.set(10_000);
    fireEvent.click(screen.getByRole("radio", { name: "npm" }));
    expect(heading()).toBe("Proceed?");
    clock.set(10_250);
    fireEvent.click(screen.getByRole("radio", { name: "Yes" }));
    fireEvent.keyDown(screen.getByRole("radio", { name: "No" }), { key: "2", code: "Digit2" });
    expect(heading()).toBe("Proceed?");
    expect(screen.getByRole("radio", { name: "Yes" })).not.toBeChecked();
    expect(screen.getByRole("radio", { name: "No" })).not.toBeChecked();
    clock.set(10_301);
    fireEvent.click(screen.getByRole("radio", { name: "Yes" }));
    expect(heading()).toBe("What should the project be called?");
    expect(respond).not.toHaveBeenCalled();
  });
});

describe("double Enter and double clicks on Next", () => {
  const answerField = () => screen.getByRole("textbox", { name: "Type your answer" });
  const form: PendingRequest = {
    ...batch,
    questions: [
      { id: "traveller", question: "Who travels?", input: { kind: "text", minLength: 2 } },
      { id: "nights", question: "How many nights?", input: { kind: "integer", minimum: 1, maximum: 30 }, defaults: { custom: "3" } },
      { id: "ok", question: "Book it?", options: [{ label: "Yes" }, { label: "No" }] },
    ],
  };

  it("moves one step on a double Enter: the second, on the default it opened, waits out the guard; typed there, it is taken", () => {
    const { respond } = renderPanel(form);
    clock.set(10_000);
    fireEvent.change(answerField(), { target: { value: "Ada Lovelace" } });
    fireEvent.keyDown(answerField(), { key: "Enter" });
    expect(heading()).toBe("How many nights?");
    clock.set(10_100);
    fireEvent.keyDown(answerField(), { key: "Enter" });
    expect(heading()).toBe("How many nights?");
    fireEvent.change(answerField(), { target: { value: "5" } });
    fireEvent.keyDown(answerField(), { key: "Enter" });
    expect(heading()).toBe("Book it?");
    // Another key right after Next is the next answer, not a double press: it is taken.
    fireEvent.keyDown(screen.getByRole("radio", { name: "No" }), { key: "2", code: "Digit2" });
    expect(screen.getByRole("radio", { name: "No" })).toBeChecked();
    expect(respond).not.toHaveBeenCalled();
  });

  it("moves one step on a double click on Next, and takes a click after the guard", () => {
    renderPanel(form);
    fireEvent.change(answerField(), { target: { value: "Ada Lovelace" } });
    clock.set(20_000);
    fireEvent.click(screen.getByRole("button", { name: "Next" }), { detail: 1, clientX: 300, clientY: 400 });
    expect(heading()).toBe("How many nights?");
    clock.set(20_150);
    fireEvent.click(screen.getByRole("button", { name: "Next" }), { detail: 2, clientX: 300, clientY: 400 });
    expect(heading()).toBe("How many nights?");
    clock.set(20_400);
    fireEvent.click(screen.getByRole("button", { name: "Next" }), { detail: 1, clientX: 300, clientY: 400 });
    expect(heading()).toBe("Book it?");
  });
});

describe("a double click on Review", () => {
  it("opens the review step and sends nothing: its Submit, where Review was, waits out the guard", async () => {
    const request: PendingRequest = {
      ...batch,
      questions: [
        { id: "note", question: "Anything to add?" },
        { id: "ok", question: "Book it?", options: [{ label: "Yes" }, { label: "No" }] },
      ],
    };
    const { respond } = renderPanel(request);
    fireEvent.click(screen.getByRole("button", { name: "Skip this question" }));
    fireEvent.click(screen.getByRole("radio", { name: "Yes" }), { detail: 1, clientX: 10, clientY: 10 });
    clock.set(50_000);
    fireEvent.click(screen.getByRole("button", { name: "Review" }), { detail: 1, clientX: 300, clientY: 400 });
    const submit = screen.getByRole("button", { name: "Submit" });
    clock.set(50_150);
    fireEvent.click(submit, { detail: 2, clientX: 300, clientY: 400 });
    // Nothing went: the request is not being sent (a send disables the button and says so at once).
    expect(submit).toHaveAccessibleName("Submit");
    expect(submit).toBeEnabled();
    expect(respond).not.toHaveBeenCalled();
    clock.set(50_400);
    fireEvent.click(submit, { detail: 1, clientX: 300, clientY: 400 });
    await waitFor(() => expect(respond).toHaveBeenCalledTimes(1));
  });
});

describe("taps elsewhere during the guard", () => {
  it("takes a tap on another option far from the advancing tap, since it is not a double tap", () => {
    const request: PendingRequest = {
      ...batch,
      questions: [batch.questions[0]!, { id: "ok", question: "Proceed?", options: [{ label: "Yes" }, { label: "No" }] }, batch.questions[1]!],
    };
    renderPanel(request);
    clock.set(10_000);
    fireEvent.click(screen.getByRole("radio", { name: "npm" }), { detail: 1, clientX: 100, clientY: 100 });
    clock.set(10_100);
    fireEvent.click(screen.getByRole("radio", { name: "No" }), { detail: 1, clientX: 100, clientY: 110 });
    expect(heading()).toBe("Proceed?");
    expect(screen.getByRole("radio", { name: "No" })).not.toBeChecked();
    fireEvent.click(screen.getByRole("radio", { name: "No" }), { detail: 1, clientX: 100, clientY: 180 });
    expect(heading()).toBe("What should the project be called?");
  });
});

describe("multi-select keyboard", () => {
  it("moves focus between checkboxes with arrow keys, Home and End without toggling", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[2]!] };
    const { user } = renderPanel(request);
    screen.getByRole("checkbox", { name: "Auth" }).focus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("checkbox", { name: "Billing" })).toHaveFocus();
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("checkbox", { name: "Search" })).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("checkbox", { name: "Search" })).toHaveFocus();
    await user.keyboard("{Home}");
    expect(screen.getByRole("checkbox", { name: "Auth" })).toHaveFocus();
    await user.keyboard("{End}{ArrowUp}");
    expect(screen.getByRole("checkbox", { name: "Billing" })).toHaveFocus();
    expect(screen.getAllByRole("checkbox").map((box) => box.getAttribute("aria-checked"))).toEqual(["false", "false", "false"]);
  });
});
