import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StrictMode } from "react";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import type { PendingRequest, Receipt, RespondRequest } from "../../protocol/schemas";
import { deleteDraft } from "./draft-storage";
import { acceptingRespond, dropFocusFromDisabled, installTestClock, answerBody, expectAnswered, renderPanel as renderRequest, type RespondMock } from "./panel-test-kit";
import { QuestionPanel } from "./question-panel";
import { resetTypingActivity, TYPING_WINDOW_MS } from "../../ui/typing-activity";

const clock = installTestClock();

afterEach(() => {
  resetTypingActivity();
  document.body.replaceChildren();
});

const batch: PendingRequest = {
  rpcId: "rpc-1",
  sessionId: "session-1",
  createdAt: "2026-11-30T10:00:00.000Z",
  questions: [
    { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
    { id: "name", question: "What should the project be called?" },
    { id: "features", question: "Which features?", multiSelect: true, options: [{ label: "Auth" }, { label: "Billing" }] },
  ],
};

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const renderPanel = (respond: RespondMock = acceptingRespond(), request = batch) => renderRequest(request, respond);


/** A message box outside the panel, holding `value`, with the focus. */
function focusedMessageBox(value = ""): HTMLTextAreaElement {
  const box = document.createElement("textarea");
  box.setAttribute("aria-label", "Message");
  box.value = value;
  document.body.append(box);
  box.focus();
  return box;
}

describe("collapsing", () => {
  it("collapses to a one-line bar on Escape without responding, and keeps the drafts", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "parley");
    await user.keyboard("{Escape}");
    expect(screen.getByRole("region", { name: "1 of 3 left" })).toBeInTheDocument();
    expect(screen.queryByRole("heading")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Expand the question card" })).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByRole("button", { name: "Answer" })).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Answer" }));
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveValue("parley");
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(screen.getByRole("radio", { name: "npm" })).toBeChecked();
    expect(respond).not.toHaveBeenCalled();
  });

  it("stays open on an Escape that closes an IME's candidates in its answer field, as Safari sends it after compositionend", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.compositionStart(field);
    fireEvent.compositionEnd(field);
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.keyDown(field, { key: "Escape", keyCode: 229 });
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toBeInTheDocument();
    fireEvent.keyDown(field, { key: "Escape", keyCode: 27 });
    expect(screen.queryByRole("textbox", { name: "Type your answer" })).not.toBeInTheDocument();
  });

  it("counts a skip as done but not answered: the bar tells all answered from answered and skipped", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "parley");
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    await screen.findByRole("heading", { name: "Review your answers" });
    await user.keyboard("{Escape}");
    expect(screen.getByRole("region", { name: "2 answered, 1 skipped" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Answer" }));
    await user.click(screen.getByRole("button", { name: "Change question 3" }));
    await user.click(screen.getByRole("checkbox", { name: "Auth" }));
    await user.keyboard("{Escape}");
    expect(screen.getByRole("region", { name: "All 3 answered" })).toBeInTheDocument();
  });

  it("reads one question waiting for a single-question request", async () => {
    const { user } = renderPanel(undefined, { ...batch, questions: [batch.questions[0]!] });
    await user.click(screen.getByRole("button", { name: "Collapse the question card" }));
    expect(screen.getByText("1 question waiting")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Expand the question card" }));
    expect(screen.getByRole("button", { name: "Collapse the question card" })).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("region", { name: "Which package manager?" })).toBeInTheDocument();
  });
});

describe("dismissing", () => {
  it("cancels at once when nothing has been drafted", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("button", { name: "Dismiss all questions" }));
    expect(respond.mock.calls).toEqual([[{ type: "cancel", rpcId: "rpc-1", sessionId: "session-1" }]]);
  });

  it("asks before discarding drafted answers and keeps them on Keep answering", async () => {
    const { user, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Dismiss all questions" }));
    expect(screen.getByText("Discard your answers?")).toBeInTheDocument();
    expect(respond).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Keep answering" }));
    expect(screen.queryByText("Discard your answers?")).not.toBeInTheDocument();
    // Focus goes back where the user answers: the step's field.
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(screen.getByRole("radio", { name: "npm" })).toBeChecked();
    expect(respond).not.toHaveBeenCalled();
  });

  it("cancels the whole request on Discard", async () => {
    const { user, respond } = renderPanel();
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "bun");
    await user.click(screen.getByRole("button", { name: "Dismiss all questions" }));
    await user.click(screen.getByRole("button", { name: "Discard" }));
    expect(respond.mock.calls).toEqual([[{ type: "cancel", rpcId: "rpc-1", sessionId: "session-1" }]]);
  });
});

describe("responding", () => {
  it("disables every control while the answer is in flight and stays busy once accepted", async () => {
    const pending = deferred<Receipt>();
    const { user } = renderPanel(vi.fn(() => pending.promise), { ...batch, questions: [batch.questions[0]!] });
    // A pick on a lone single-select answers it.
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(screen.getByRole("button", { name: "Submitting…" })).toBeDisabled();
    for (const button of screen.getAllByRole("button")) expect(button).toBeDisabled();
    for (const radio of screen.getAllByRole("radio")) expect(radio).toBeDisabled();
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toBeDisabled();
    await act(async () => pending.resolve({ accepted: true }));
    expect(screen.getByRole("status")).toHaveTextContent("Sent. Waiting for Parley's assistant…");
    expect(screen.getByRole("button", { name: "Submitting…" })).toBeDisabled();
    expect(screen.getByRole("radio", { name: "npm" })).toBeDisabled();
    expect(screen.getByRole("region", { name: "Which package manager?" })).toBeInTheDocument();
  });

  it("shows a rejected receipt's reason, re-enables the controls and keeps the drafts", async () => {
    const respond = vi.fn(async (): Promise<Receipt> => ({ accepted: false, reason: "not-pending", detail: "rpcId rpc-1 is not pending" }));
    const { user } = renderPanel(respond, { ...batch, questions: [batch.questions[0]!] });
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(screen.getByRole("status")).toHaveTextContent(/^question response rejected: not-pending$/);
    expect(screen.getByText("rpcId rpc-1 is not pending")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Submit" })).toBeEnabled();
    expect(screen.getByRole("radio", { name: "npm" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "npm" })).toBeEnabled();
  });

  it("shows a network error's message and lets the user retry", async () => {
    const respond = vi
      .fn<(body: RespondRequest) => Promise<Receipt>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockResolvedValueOnce({ accepted: true });
    const { user } = renderPanel(respond, { ...batch, questions: [batch.questions[0]!] });
    await user.click(screen.getByRole("radio", { name: "npm" }));
    expect(screen.getByRole("status")).toHaveTextContent("Failed to fetch");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    const body = answerBody([{ id: "pkg", selected: ["npm"] }]);
    expect(respond.mock.calls).toEqual([[body], [body]]);
  });

  it("gives focus back to the control it was sent from when the send fails, so Enter and the number keys work again", async () => {
    const stopDropping = dropFocusFromDisabled();
    try {
      const respond = vi
        .fn<(body: RespondRequest) => Promise<Receipt>>()
        .mockRejectedValueOnce(new TypeError("Failed to fetch"))
        .mockResolvedValueOnce({ accepted: true });
      renderPanel(respond, { ...batch, questions: [batch.questions[0]!] });
      const npm = screen.getByRole("radio", { name: "npm" });
      npm.focus();
      fireEvent.keyDown(npm, { key: "Enter" });
      await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Failed to fetch"));
      await waitFor(() => expect(npm).toHaveFocus());
      fireEvent.keyDown(document.activeElement!, { key: "2", code: "Digit2" });
      const body = answerBody([{ id: "pkg", selected: ["npm"] }]);
      await waitFor(() => expect(respond.mock.calls).toEqual([[body], [body]]));
    } finally {
      stopDropping();
    }
  });

  it("puts focus in the step when the control the failed send came from is gone", async () => {
    const stopDropping = dropFocusFromDisabled();
    try {
      const respond = vi.fn(async (): Promise<Receipt> => ({ accepted: false, reason: "not-pending", detail: "gone" }));
      const { user } = renderPanel(respond);
      await user.click(screen.getByRole("radio", { name: "npm" }));
      await user.click(screen.getByRole("button", { name: "Dismiss all questions" }));
      await user.click(screen.getByRole("button", { name: "Discard" }));
      await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(/rejected: not-pending/));
      // Focus comes back in the render after the one that freed the controls.
      await waitFor(() => expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveFocus());
    } finally {
      stopDropping();
    }
  });

  it("disables every control while a cancel is in flight", async () => {
    const pending = deferred<Receipt>();
    const { user } = renderPanel(vi.fn(() => pending.promise));
    await user.click(screen.getByRole("button", { name: "Dismiss all questions" }));
    for (const button of screen.getAllByRole("button")) expect(button).toBeDisabled();
    expect(screen.getByRole("status")).toHaveTextContent("Dismissing…");
    await act(async () => pending.resolve({ accepted: false, reason: "not-pending", detail: "gone" }));
    expect(screen.getByRole("button", { name: "Dismiss all questions" })).toBeEnabled();
  });
});

describe("drafts across reloads", () => {
  it("restores selections, text, skips and the step when remounted with the same rpcId", async () => {
    const { user, view } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    await user.click(screen.getByRole("checkbox", { name: "Billing" }));
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "Exports");
    view.unmount();
    const respond = acceptingRespond();
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={respond} autoFocus={false} />);
    expect(screen.getByRole("heading", { name: "Which features?" })).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Billing" })).toBeChecked();
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveValue("Exports");
    await user.click(screen.getByRole("button", { name: "Review" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expectAnswered(respond, [
      { id: "pkg", selected: ["npm"] },
      { id: "name", selected: [] },
      { id: "features", selected: ["Billing"], custom: "Exports" },
    ]);
  });

  it("starts fresh after the draft is deleted", async () => {
    const { user, view } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    view.unmount();
    deleteDraft("rpc-1");
    renderPanel();
    expect(screen.getByRole("heading", { name: "Which package manager?" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "npm" })).not.toBeChecked();
  });

  it("shows the new request when the request prop changes", async () => {
    const { user, view, respond } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    const next: PendingRequest = { ...batch, rpcId: "rpc-2", questions: [{ id: "ok", question: "Proceed?" }] };
    view.rerender(<QuestionPanel request={next} position={{ index: 0, count: 1 }} respond={respond} autoFocus={false} />);
    expect(screen.getByRole("region", { name: "Proceed?" })).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Questions" })).not.toBeInTheDocument();
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "yes{Enter}");
    expect(respond.mock.calls).toEqual([[answerBody([{ id: "ok", selected: [], custom: "yes" }], "rpc-2")]]);
  });
});

describe("focus", () => {
  it("focuses the first option when shown in a visible, focused tab", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
  });

  it("does not take focus when the tab is not focused", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(false);
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(document.body).toHaveFocus();
  });

  describe("arriving while the user is away", () => {
    beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] }));
    afterEach(() => vi.useRealTimers());

    it("takes over once they are back, from the empty composer that kept the focus, and not before", async () => {
      const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
      const composer = focusedMessageBox();
      render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
      await act(() => vi.advanceTimersByTimeAsync(2_000));
      expect(composer).toHaveFocus();
      expect(screen.getByText("Parley's assistant asks 3 questions. Press Alt+Q to answer.")).toBeInTheDocument();
      hasFocus.mockReturnValue(true);
      await act(() => vi.advanceTimersByTimeAsync(250));
      expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
      expect(screen.queryByText(/Press Alt\+Q to answer/)).not.toBeInTheDocument();
    });

    it("coming back by a click into the message box, leaves the first keys to it: takes over only once the typing window after the click is over", async () => {
      let now = 50_000;
      vi.spyOn(performance, "now").mockImplementation(() => now);
      const pass = async (ms: number) => {
        now += ms;
        await act(() => vi.advanceTimersByTimeAsync(ms));
      };
      const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
      const composer = focusedMessageBox();
      render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
      await pass(2_000);
      hasFocus.mockReturnValue(true);
      fireEvent.pointerDown(composer, { button: 0 });
      fireEvent.pointerUp(composer, { button: 0 });
      await pass(1_000);
      expect(composer).toHaveFocus();
      expect(screen.getByText("Parley's assistant asks 3 questions. Press Alt+Q to answer.")).toBeInTheDocument();
      await pass(TYPING_WINDOW_MS);
      expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
    });

    it("on a touch device says to tap the panel, which then takes over, instead of naming a shortcut it has no key for", async () => {
      const original = window.matchMedia;
      window.matchMedia = ((query: string) => ({ matches: query === "(hover: none) and (pointer: coarse)", media: query, addEventListener: () => undefined, removeEventListener: () => undefined })) as unknown as typeof window.matchMedia;
      try {
        const composer = focusedMessageBox("half a thought");
        render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
        await act(() => vi.advanceTimersByTimeAsync(2_000));
        expect(composer).toHaveFocus();
        expect(screen.getByText("Parley's assistant asks 3 questions. Tap the panel to answer.")).toHaveRole("status");
        fireEvent.pointerDown(screen.getByRole("region"), { button: 0 });
        fireEvent.pointerUp(screen.getByRole("region"), { button: 0 });
        await act(() => vi.advanceTimersByTimeAsync(0));
        expect(screen.queryByText(/Tap the panel to answer/)).not.toBeInTheDocument();
      } finally {
        window.matchMedia = original;
      }
    });

    it("stays passive once they are back if the composer holds a draft", async () => {
      const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
      const composer = focusedMessageBox("half a thought");
      render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
      hasFocus.mockReturnValue(true);
      await act(() => vi.advanceTimersByTimeAsync(2_000));
      expect(composer).toHaveFocus();
      expect(screen.getByText("Parley's assistant asks 3 questions. Press Alt+Q to answer.")).toBeInTheDocument();
    });
  });

  it("does not take focus under StrictMode's repeated effects when the tab is not focused", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(false);
    render(
      <StrictMode>
        <QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />
      </StrictMode>,
    );
    expect(document.body).toHaveFocus();
  });

  it("does not take focus when restored collapsed", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    sessionStorage.setItem("parley.question-draft.rpc-1", JSON.stringify({ drafts: {}, index: 0, collapsed: true }));
    render(
      <StrictMode>
        <QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />
      </StrictMode>,
    );
    expect(screen.getByRole("button", { name: "Expand the question card" })).toBeInTheDocument();
    expect(document.body).toHaveFocus();
  });

  it("does not take focus when autoFocus is false", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />);
    expect(document.body).toHaveFocus();
  });
});

describe("arriving while the user types elsewhere", () => {
  function typeIntoOutsideField() {
    const outside = focusedMessageBox();
    fireEvent.keyDown(outside, { key: "3", code: "Digit3" });
    fireEvent.change(outside, { target: { value: "I have 3 " } });
    return outside;
  }

  it("leaves focus in the field being typed in, takes no shortcut, and announces itself politely", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const outside = typeIntoOutsideField();
    const respond = acceptingRespond();
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={respond} />);
    expect(outside).toHaveFocus();
    expect(await screen.findByText("Parley's assistant asks 3 questions. Press Alt+Q to answer.")).toHaveAttribute("role", "status");
    fireEvent.keyDown(outside, { key: "2", code: "Digit2" });
    fireEvent.keyDown(outside, { key: "Enter", code: "Enter" });
    expect(screen.getByRole("radio", { name: "npm" })).not.toBeChecked();
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("Which package manager?");
    expect(respond).not.toHaveBeenCalled();
  });

  it("turns to the panel on Alt+Q from anywhere, focusing the current step", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const outside = typeIntoOutsideField();
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    fireEvent.keyDown(outside, { key: "œ", code: "KeyQ", altKey: true });
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
    expect(screen.queryByText(/Press Alt\+Q to answer/)).not.toBeInTheDocument();
  });

  it("leaves Alt+Q pressed in its own answer field to the field: Option+Q types there and the focus stays", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    const field = screen.getAllByRole("textbox")[0]!;
    field.focus();
    expect(fireEvent.keyDown(field, { key: "œ", code: "KeyQ", altKey: true })).toBe(true);
    expect(field).toHaveFocus();
  });

  it("expands a collapsed panel on Alt+Q, from the page or from the collapsed bar itself", () => {
    sessionStorage.setItem("parley.question-draft.rpc-1", JSON.stringify({ drafts: [], index: 0, collapsed: true }));
    const { unmount } = render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />);
    fireEvent.keyDown(document.body, { key: "q", code: "KeyQ", altKey: true });
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
    unmount();
    sessionStorage.setItem("parley.question-draft.rpc-1", JSON.stringify({ drafts: [], index: 0, collapsed: true }));
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />);
    const expandButton = screen.getByRole("button", { name: "Expand the question card" });
    expandButton.focus();
    fireEvent.keyDown(expandButton, { key: "q", code: "KeyQ", altKey: true });
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
  });

  it("counts a keystroke in a text field in the last 1.5 s as typing even once focus has left it", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const search = document.createElement("input");
    search.setAttribute("aria-label", "Search chats");
    document.body.append(search);
    clock.set(5_000);
    fireEvent.keyDown(search, { key: "a", code: "KeyA" });
    clock.set(6_400);
    const view = render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(document.body).toHaveFocus();
    view.unmount();
    clock.set(6_600);
    render(<QuestionPanel request={{ ...batch, rpcId: "rpc-9" }} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
  });

  it("does not count a key pressed outside any text field as typing", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    clock.set(5_000);
    fireEvent.keyDown(document.body, { key: "a", code: "KeyA" });
    clock.set(5_100);
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
  });

  it("takes over by itself once the composer it waited for is emptied by sending", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const outside = typeIntoOutsideField();
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(outside).toHaveFocus();
    fireEvent.keyDown(outside, { key: "Enter", code: "Enter" });
    outside.value = "";
    await waitFor(() => expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus());
    expect(screen.queryByText(/Press Alt\+Q to answer/)).not.toBeInTheDocument();
  });

  describe("with a pointer pressed as the typing stops", () => {
    const ARRIVAL_NOTICE = "Parley's assistant asks 3 questions. Press Alt+Q to answer.";

    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
      vi.spyOn(document, "hasFocus").mockReturnValue(true);
    });
    afterEach(() => {
      fireEvent.pointerUp(document.body);
      vi.useRealTimers();
    });

    /** The panel arrives while the user types in a field outside it; `send()` is that field's Enter, which empties it. */
    function arriveWhileTyping() {
      const outside = typeIntoOutsideField();
      render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
      const send = () => {
        fireEvent.keyDown(outside, { key: "Enter", code: "Enter" });
        outside.value = "";
      };
      return { outside, send };
    }

    it("takes over only once the press is over: its place changes, and the tap would land elsewhere", async () => {
      const { outside, send } = arriveWhileTyping();
      fireEvent.pointerDown(document.body);
      send();
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(outside).toHaveFocus();
      expect(screen.getByText(ARRIVAL_NOTICE)).toBeInTheDocument();
      fireEvent.pointerUp(document.body);
      await act(() => vi.advanceTimersByTimeAsync(10));
      expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
      expect(screen.queryByText(ARRIVAL_NOTICE)).not.toBeInTheDocument();
    });

    it("waits on when the user is typing again by the time the press ends, and takes over once they stop", async () => {
      const { outside, send } = arriveWhileTyping();
      fireEvent.pointerDown(document.body);
      send();
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      fireEvent.keyDown(outside, { key: "n", code: "KeyN" });
      fireEvent.change(outside, { target: { value: "n" } });
      fireEvent.pointerUp(document.body);
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(outside).toHaveFocus();
      expect(screen.getByText(ARRIVAL_NOTICE)).toBeInTheDocument();
      send();
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
      expect(screen.queryByText(ARRIVAL_NOTICE)).not.toBeInTheDocument();
    });

    it("leaves the focus where a press into the panel put it", async () => {
      const { send } = arriveWhileTyping();
      send();
      const field = screen.getByRole("textbox", { name: "Type your answer" });
      fireEvent.pointerDown(field);
      act(() => field.focus());
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      fireEvent.pointerUp(field);
      await act(() => vi.advanceTimersByTimeAsync(10));
      expect(field).toHaveFocus();
      expect(screen.queryByText(ARRIVAL_NOTICE)).not.toBeInTheDocument();
    });
  });
});

describe("arriving after a message was sent", () => {
  it("takes over from the composer the Enter emptied: that Enter is not typing", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const composer = focusedMessageBox();
    fireEvent.keyDown(composer, { key: "h", code: "KeyH" });
    fireEvent.keyDown(composer, { key: "Enter", code: "Enter" });
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
    expect(screen.queryByText(/Press Alt\+Q to answer/)).not.toBeInTheDocument();
  });

  it("stays passive while the composer still holds the text an Enter could not send", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const composer = document.createElement("textarea");
    composer.setAttribute("aria-label", "Message");
    document.body.append(composer);
    composer.value = "still here";
    composer.focus();
    fireEvent.keyDown(composer, { key: "Enter", code: "Enter" });
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(composer).toHaveFocus();
    expect(await screen.findByText("Parley's assistant asks 3 questions. Press Alt+Q to answer.")).toHaveAttribute("role", "status");
  });

  it("takes focus from an empty text field nobody typed in", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const search = document.createElement("input");
    search.setAttribute("aria-label", "Search chats");
    document.body.append(search);
    search.focus();
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} />);
    expect(screen.getByRole("radio", { name: "pnpm" })).toHaveFocus();
  });
});

describe("locales", () => {
  it("shows Chinese copy and still detects a full-width Chinese recommendation suffix", async () => {
    const respond = acceptingRespond();
    const request: PendingRequest = {
      ...batch,
      questions: [{ id: "pkg", question: "用哪个包管理器？", options: [{ label: "pnpm（推荐）" }, { label: "npm" }] }],
    };
    render(
      <LocaleProvider initial="zh-CN">
        <QuestionPanel request={request} position={{ index: 0, count: 2 }} respond={respond} autoFocus={false} />
      </LocaleProvider>,
    );
    const user = userEvent.setup();
    expect(screen.getByText("第 1 个请求，共 2 个")).toBeInTheDocument();
    expect(screen.getByText("推荐")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "输入你的回答" })).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "pnpm" }));
    expectAnswered(respond, [{ id: "pkg", selected: ["pnpm（推荐）"] }]);
  });
});

describe("escape key", () => {
  it("closes the discard confirmation instead of collapsing", async () => {
    const { user } = renderPanel();
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Dismiss all questions" }));
    fireEvent.keyDown(screen.getByRole("button", { name: "Keep answering" }), { key: "Escape" });
    expect(screen.queryByText("Discard your answers?")).not.toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveFocus();
    expect(screen.getByRole("button", { name: "Collapse the question card" })).toBeInTheDocument();
  });
});

describe("who is asking", () => {
  it("names an agent over MCP in the header", () => {
    render(<QuestionPanel request={{ ...batch, origin: { kind: "mcp-client", name: "Claude Code" } }} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />);
    expect(screen.getByText("Claude Code").closest(".question-panel__origin")).toHaveTextContent("Asked by Claude Code");
  });

  it("says nothing for this chat's own agent or a request without an origin", () => {
    const view = render(<QuestionPanel request={{ ...batch, origin: { kind: "agent", name: "Parley" } }} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />);
    expect(screen.queryByText(/Asked by/)).not.toBeInTheDocument();
    view.unmount();
    render(<QuestionPanel request={{ ...batch, rpcId: "rpc-2" }} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />);
    expect(screen.queryByText(/Asked by/)).not.toBeInTheDocument();
  });

  it("isolates the asker's name and shows the Chinese line", () => {
    render(
      <LocaleProvider initial="zh-CN">
        <QuestionPanel request={{ ...batch, origin: { kind: "mcp-server", name: "\u202Eloot" } }} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />
      </LocaleProvider>,
    );
    const name = screen.getByText("⟨U+202E⟩loot");
    expect(name.tagName).toBe("BDI");
    expect(name.closest(".question-panel__origin")).toHaveTextContent("提问方：⟨U+202E⟩loot 服务器");
  });
});

describe("reloading on the review step", () => {
  it("opens the review step again, not the last question", () => {
    sessionStorage.setItem(
      "parley.question-draft.rpc-1",
      JSON.stringify({ drafts: [["pkg", { selected: ["npm"], custom: "", skipped: false }]], index: 3, collapsed: false }),
    );
    render(<QuestionPanel request={batch} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />);
    expect(screen.getByRole("heading", { name: "Review your answers" })).toBeInTheDocument();
    sessionStorage.clear();
  });
});

describe("a panel that takes over from the one before it", () => {
  const single = (rpcId: string, question: string): PendingRequest => ({
    rpcId,
    sessionId: "session-1",
    createdAt: "2026-11-30T10:00:00.000Z",
    questions: [{ id: "ok", question, options: [{ label: "Yes" }, { label: "No" }] }],
  });
  /** Renders a lone question in a focused window at `at` on the test clock, taking focus from nowhere; its respond. */
  const renderLoneAt = (rpcId: string, question: string, at: number) => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const respond = acceptingRespond();
    clock.set(at);
    render(<QuestionPanel request={single(rpcId, question)} position={{ index: 0, count: 1 }} respond={respond} />);
    return respond;
  };

  it("takes no key or tap in its first 300 ms when it took focus from a panel still on screen (the keys were meant for that one), and never a held key", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const respond = acceptingRespond();
    const view = render(<QuestionPanel key="r1" request={single("r1", "First?")} position={{ index: 0, count: 2 }} respond={respond} />);
    expect(screen.getByRole("radio", { name: "Yes" })).toHaveFocus();
    clock.set(20_000);
    // The first request left (answered in another tab): the next one's panel replaces it in the same render.
    view.rerender(<QuestionPanel key="r2" request={single("r2", "Second?")} position={{ index: 0, count: 1 }} respond={respond} />);
    const yes = screen.getByRole("radio", { name: "Yes" });
    expect([screen.getByRole("heading", { level: 2 }).textContent, document.activeElement]).toEqual(["Second?", yes]);
    fireEvent.keyDown(yes, { key: "Enter" });
    fireEvent.keyDown(yes, { key: "2", code: "Digit2" });
    clock.set(20_299);
    fireEvent.click(yes, { detail: 1, clientX: 10, clientY: 10 });
    fireEvent.keyDown(yes, { key: "Enter" });
    // A response is sent a microtask after the key: let any such go before saying none went.
    await act(async () => undefined);
    expect(respond).not.toHaveBeenCalled();
    expect(screen.getAllByRole("radio").map((radio) => radio.getAttribute("aria-checked"))).toEqual(["false", "false"]);
    clock.set(20_301);
    // Past the window a held Enter's repeats still answer nothing; a press does.
    fireEvent.keyDown(yes, { key: "Enter", repeat: true });
    await act(async () => undefined);
    expect(respond).not.toHaveBeenCalled();
    fireEvent.keyDown(yes, { key: "Enter" });
    await waitFor(() => expect(respond.mock.calls).toEqual([[answerBody([{ id: "ok", selected: ["Yes"] }], "r2")]]));
  });

  it("takes, in its first 300 ms, no Enter in its text field though letters were typed there, and no tap on its close button", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const respond = acceptingRespond();
    const free = (rpcId: string, question: string): PendingRequest => ({ ...single(rpcId, question), questions: [{ id: "why", question }] });
    const view = render(<QuestionPanel key="r1" request={free("r1", "First?")} position={{ index: 0, count: 2 }} respond={respond} />);
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveFocus();
    clock.set(40_000);
    view.rerender(<QuestionPanel key="r2" request={free("r2", "Second?")} position={{ index: 0, count: 1 }} respond={respond} />);
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    expect(field).toHaveFocus();
    // A second tap on the close button the first panel had here: with nothing typed it would cancel at once.
    fireEvent.click(screen.getByRole("button", { name: "Dismiss all questions" }));
    // The rest of a word meant for the first panel lands here, then its Enter: shown, never sent.
    fireEvent.change(field, { target: { value: "re" } });
    fireEvent.keyDown(field, { key: "Enter" });
    await act(async () => undefined);
    expect([respond.mock.calls, (field as HTMLTextAreaElement).value]).toEqual([[], "re"]);
    clock.set(40_300);
    fireEvent.keyDown(field, { key: "Enter" });
    await waitFor(() => expect(respond.mock.calls).toEqual([[answerBody([{ id: "why", selected: [], custom: "re" }], "r2")]]));
  });

  it("takes no key in its first 300 ms after the one it replaces was answered here, though that send disabled the focused control", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    onTestFinished(dropFocusFromDisabled());
    const respond = acceptingRespond();
    const view = render(<QuestionPanel key="r1" request={single("r1", "First?")} position={{ index: 0, count: 2 }} respond={respond} />);
    fireEvent.keyDown(screen.getByRole("radio", { name: "Yes" }), { key: "Enter" });
    await waitFor(() => expect(respond.mock.calls).toEqual([[answerBody([{ id: "ok", selected: ["Yes"] }], "r1")]]));
    expect(screen.getByRole("radio", { name: "Yes" })).toBeDisabled();
    clock.set(50_000);
    // The first request is resolved; the next one's panel replaces it, and the second press of the Enter arrives.
    view.rerender(<QuestionPanel key="r2" request={single("r2", "Second?")} position={{ index: 0, count: 1 }} respond={respond} />);
    const yes = screen.getByRole("radio", { name: "Yes" });
    expect(yes).toHaveFocus();
    clock.set(50_200);
    fireEvent.keyDown(yes, { key: "Enter" });
    fireEvent.keyDown(yes, { key: "1", code: "Digit1" });
    await act(async () => undefined);
    expect(respond).toHaveBeenCalledTimes(1);
  });

  it("never lets a held Enter press a button: only its first press does", () => {
    renderRequest({ ...single("r5", "Which?"), questions: [single("r5", "Which?").questions[0]!, { id: "more", question: "More?" }] });
    fireEvent.click(screen.getByRole("radio", { name: "No" }));
    const previous = screen.getByRole("button", { name: "Previous question" });
    // fireEvent answers false when the event's default was prevented.
    expect([fireEvent.keyDown(previous, { key: "Enter", repeat: true }), fireEvent.keyDown(previous, { key: "Enter" })]).toEqual([false, true]);
  });

  it("takes a key at once when it takes focus from anywhere but a panel", async () => {
    const respond = renderLoneAt("r3", "Third?", 30_000);
    const no = screen.getByRole("radio", { name: "No" });
    fireEvent.keyDown(no, { key: "2", code: "Digit2" });
    await waitFor(() => expect(respond.mock.calls).toEqual([[answerBody([{ id: "ok", selected: ["No"] }], "r3")]]));
  });

  it("after letters typed on its radios (typing meant for the message box), takes no Space, Enter or digit until the typing has paused", async () => {
    const respond = renderLoneAt("r5", "Fifth?", 40_000);
    const yes = screen.getByRole("radio", { name: "Yes" });
    expect(yes).toHaveFocus();
    clock.set(41_000);
    expect([fireEvent.keyDown(yes, { key: "o", code: "KeyO" }), fireEvent.keyDown(yes, { key: "k", code: "KeyK" })]).toEqual([true, true]);
    clock.set(42_000);
    expect([" ", "Enter", "2"].map((key) => fireEvent.keyDown(yes, { key, code: key === "2" ? "Digit2" : key === " " ? "Space" : key }))).toEqual([false, false, false]);
    expect(respond).not.toHaveBeenCalled();
    clock.set(43_600);
    fireEvent.keyDown(yes, { key: "2", code: "Digit2" });
    await waitFor(() => expect(respond.mock.calls).toEqual([[answerBody([{ id: "ok", selected: ["No"] }], "r5")]]));
  });

  it("never takes a held Enter in its text field, which moves on only on a press", () => {
    const respond = acceptingRespond();
    renderRequest({ ...single("r4", "Why?"), questions: [{ id: "why", question: "Why?" }, { id: "ok", question: "Sure?", options: [{ label: "Yes" }] }] }, respond);
    const field = screen.getByRole("textbox", { name: "Type your answer" });
    fireEvent.change(field, { target: { value: "because" } });
    fireEvent.keyDown(field, { key: "Enter", repeat: true });
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Why?");
    fireEvent.keyDown(field, { key: "Enter" });
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Sure?");
  });
});
