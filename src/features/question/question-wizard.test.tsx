import { act, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { PendingRequest, Receipt, RespondRequest } from "../../protocol/schemas";
import { QuestionPanel } from "./question-panel";

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

function renderPanel(request: PendingRequest = batch) {
  const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
  render(<QuestionPanel request={request} position={{ index: 0, count: 1 }} respond={respond} autoFocus={false} />);
  return { respond, user: userEvent.setup() };
}

function heading() {
  return screen.getByRole("heading", { level: 2 }).textContent;
}

describe("question wizard layout", () => {
  it("shows the header, the question as the region's name and the pager", () => {
    renderPanel();
    expect(screen.getByRole("region", { name: "Which package manager?" })).toBeInTheDocument();
    expect(screen.getByText("Tooling")).toBeInTheDocument();
    expect(screen.getByText("1 / 3")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous question" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next question" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    expect(screen.getByRole("status")).toHaveTextContent("");
    expect(screen.queryByText(/Request \d of \d/)).not.toBeInTheDocument();
  });

  it("shows the request position when several requests are pending", () => {
    const respond = vi.fn(async (): Promise<Receipt> => ({ accepted: true }));
    render(<QuestionPanel request={batch} position={{ index: 0, count: 2 }} respond={respond} autoFocus={false} />);
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
    expect(screen.getByText("2 / 3")).toBeInTheDocument();
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

  it("never submits when the last question's option is chosen", async () => {
    const request: PendingRequest = { ...batch, questions: [batch.questions[0]!] };
    const { user, respond } = renderPanel(request);
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(respond).not.toHaveBeenCalled();
    expect(screen.getByRole("radio", { name: "npm" })).toBeChecked();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(respond.mock.calls).toEqual([[{ type: "answer", rpcId: "rpc-1", sessionId: "session-1", answers: [{ id: "pkg", selected: ["npm"] }] }]]);
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
    expect(respond.mock.calls).toEqual([
      [{ type: "answer", rpcId: "rpc-1", sessionId: "session-1", answers: [{ id: "features", selected: ["Auth", "Search"], custom: "Exports" }] }],
    ]);
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
    expect(respond.mock.calls).toEqual([
      [
        {
          type: "answer",
          rpcId: "rpc-1",
          sessionId: "session-1",
          answers: [
            { id: "pkg", selected: ["pnpm (Recommended)"] },
            { id: "name", selected: [], custom: "parley " },
            { id: "features", selected: ["Billing"] },
          ],
        },
      ],
    ]);
  });

  it("jumps to the first incomplete question instead of submitting", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Next question" }));
    await user.click(screen.getByRole("checkbox", { name: "Auth" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(respond).not.toHaveBeenCalled();
    expect(heading()).toBe("What should the project be called?");
    expect(screen.getByRole("status")).toHaveTextContent("Please complete this question first.");
  });

  it("skips a question, keeping the other drafts, and submits when the last is skipped", async () => {
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
    expect(respond.mock.calls).toEqual([
      [
        {
          type: "answer",
          rpcId: "rpc-1",
          sessionId: "session-1",
          answers: [
            { id: "pkg", selected: ["yarn"] },
            { id: "name", selected: [] },
            { id: "features", selected: [] },
          ],
        },
      ],
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

  it("submits with Enter once every question is answered or skipped", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    await user.click(screen.getByRole("checkbox", { name: "Search" }));
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    screen.getByRole("heading", { name: "Which package manager?" }).focus();
    await user.keyboard("{Enter}");
    expect(respond.mock.calls).toEqual([
      [
        {
          type: "answer",
          rpcId: "rpc-1",
          sessionId: "session-1",
          answers: [
            { id: "pkg", selected: ["npm"] },
            { id: "name", selected: [] },
            { id: "features", selected: ["Search"] },
          ],
        },
      ],
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

  it("ignores an Enter with key code 229", () => {
    renderPanel();
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.change(field, { target: { value: "日本" } });
    fireEvent.keyDown(field, { key: "Enter", keyCode: 229 });
    expect(heading()).toBe("Which package manager?");
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
