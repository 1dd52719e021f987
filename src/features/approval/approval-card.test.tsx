import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { resetTypingActivity } from "../../ui/typing-activity";
import { approvalQuestions } from "../../protocol/approval";
import type { PendingRequest, Receipt, RespondRequest, ToolApproval } from "../../protocol/schemas";
import { createQuestionEntry, loadQuestionPanel } from "../../app/question-entry";
import { Conversation } from "../chat/conversation";
import { defineSlotEntry } from "../chat/slot-entries";
import { LocaleProvider } from "../../i18n/i18n";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { createApprovalEntry, loadApprovalCards } from "./approval-entry";
import { dropFocusFromDisabled } from "../question/panel-test-kit";

const longText = "line of text ".repeat(400);
const call: ToolApproval = { server: "files", tool: "write_file", arguments: JSON.stringify({ path: "notes/today.md", text: longText }) };

function approvalRequest(rpcId: string, approval: ToolApproval = call): PendingRequest {
  return { rpcId, sessionId: "s-1", questions: approvalQuestions(approval), createdAt: "2026-11-30T10:00:00.000Z", origin: { kind: "mcp-server", name: approval.server }, approval };
}

function questionRequest(rpcId: string, question: string): PendingRequest {
  return { rpcId, sessionId: "s-1", questions: [{ id: "go", question, options: [{ label: "Yes" }, { label: "No" }] }], createdAt: "2026-11-30T10:00:00.000Z" };
}

function setup(receipts: Receipt[] = [], locale: "en" | "zh-CN" = "en") {
  const store = createSessionStore();
  store.getState().loadSessions([{ id: "s-1", title: "Chat", createdAt: "2026-11-30T09:00:00.000Z", updatedAt: "2026-11-30T09:00:00.000Z", state: "idle" }]);
  const posted: RespondRequest[] = [];
  const respond = async (body: RespondRequest): Promise<Receipt> => {
    posted.push(body);
    return receipts.shift() ?? { accepted: true };
  };
  const entries = [createQuestionEntry(respond), defineSlotEntry(createApprovalEntry(respond))];
  render(
    <LocaleProvider initial={locale} setsDocumentLanguage={false}>
      <SessionStoreProvider store={store}>
        <Conversation sessionId="s-1" slotEntries={entries} drafts={new Map()} onSend={async () => undefined} onStop={async () => undefined} fallbackTitle="New chat" focusReady={false} />
      </SessionStoreProvider>
    </LocaleProvider>,
  );
  return { store, posted };
}

// A keystroke an earlier test typed must not count as typing now.
beforeEach(() => resetTypingActivity());

beforeAll(async () => {
  await loadQuestionPanel();
  await loadApprovalCards();
});

describe("the approval card in the composer slot", () => {
  it("shows the server, the tool and the whole arguments pretty-printed in a labelled region, and hides the composer", async () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    const card = await screen.findByRole("region", { name: "Allow files to run write_file?" });
    expect(card).toBeInTheDocument();
    expect(screen.queryByText(/Requested by/)).toBeNull();
    expect(screen.queryByRole("textbox", { name: "Reason for denying (optional)" })).toBeNull();
    expect(screen.getByRole("region", { name: "Arguments" }).textContent).toBe(JSON.stringify({ path: "notes/today.md", text: longText }, null, 2));
    expect(screen.queryByRole("textbox", { name: "Message" })).toBeNull();
    expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual(expect.arrayContaining(["Deny", "Allow for this chat", "Allow once"]));
  });

  it("sends each decision through respond with the approval answer, and Deny carries the typed reason", async () => {
    const user = userEvent.setup();
    const { store, posted } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    await user.click(await screen.findByRole("button", { name: "Allow once" }));
    expect(await screen.findByText("Sent. Waiting for the tool…")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Deny" })).toBeDisabled();
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "a1", sessionId: "s-1", outcome: "answered" }));

    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a2") }));
    await user.click(await screen.findByRole("button", { name: "Allow for this chat" }));
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "a2", sessionId: "s-1", outcome: "answered" }));

    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a3") }));
    await user.click(await screen.findByRole("button", { name: "Deny" }));
    expect(posted).toHaveLength(2);
    await user.type(screen.getByRole("textbox", { name: "Reason for denying (optional)" }), "  not that file  ");
    await user.click(screen.getByRole("button", { name: "Deny" }));

    expect(posted).toEqual([
      { type: "answer", rpcId: "a1", sessionId: "s-1", answers: [{ id: "approval", selected: ["Allow once"] }, { id: "approval-reason", selected: [] }] },
      { type: "answer", rpcId: "a2", sessionId: "s-1", answers: [{ id: "approval", selected: ["Allow for this chat"] }, { id: "approval-reason", selected: [] }] },
      { type: "answer", rpcId: "a3", sessionId: "s-1", answers: [{ id: "approval", selected: ["Deny"] }, { id: "approval-reason", selected: [], custom: "not that file" }] },
    ]);
  });

  it("says so when another tab answered first, and shows a refusal's detail, leaving the buttons usable", async () => {
    const user = userEvent.setup();
    const { store } = setup([
      { accepted: false, reason: "not-pending", detail: "question a1 is not pending" },
      { accepted: false, reason: "bad-response", detail: "question approval needs an answer" },
    ]);
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    await user.click(await screen.findByRole("button", { name: "Allow once" }));
    expect(await screen.findByText("This request was already answered, dismissed or stopped.")).toHaveAttribute("role", "status");
    await user.click(screen.getByRole("button", { name: "Deny" }));
    await user.click(screen.getByRole("button", { name: "Deny" }));
    expect(await screen.findByText("The host refused this answer: question approval needs an answer")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Allow once" })).toBeEnabled();
  });

  it("queues approvals and questions in arrival order: a question first, then the approval after it resolves, then the next question", async () => {
    const { store } = setup();
    act(() => {
      store.getState().applyFrame({ type: "question/requested", ...questionRequest("q1", "Ship it?") });
      store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") });
      store.getState().applyFrame({ type: "question/requested", ...questionRequest("q2", "Tag it?") });
    });
    expect(await screen.findByRole("region", { name: "Ship it?" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Allow files to run write_file?" })).toBeNull();
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "q1", sessionId: "s-1", outcome: "answered" }));
    expect(await screen.findByRole("region", { name: "Allow files to run write_file?" })).toBeInTheDocument();
    expect(screen.getByText("Request 1 of 2")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Tag it?" })).toBeNull();
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "a1", sessionId: "s-1", outcome: "answered" }));
    expect(await screen.findByRole("region", { name: "Tag it?" })).toBeInTheDocument();
  });

  it("is reachable by keyboard in order: heading, arguments, reason, Deny, Allow for this chat, Allow once", async () => {
    const user = userEvent.setup();
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    const heading = await screen.findByRole("heading", { name: "Allow files to run write_file?" });
    act(() => heading.focus());
    const reached: (string | null)[] = [];
    for (let step = 0; step < 4; step++) {
      await user.tab();
      const active = document.activeElement as HTMLElement;
      reached.push(active.getAttribute("aria-label") ?? (active.tagName === "TEXTAREA" ? "reason" : active.textContent));
    }
    expect(reached).toEqual(["Arguments", "Deny", "Allow for this chat", "Allow once"]);
  });

  it("takes focus on its heading when nothing holds focus, and leaves it in the composer someone is typing in", async () => {
    const user = userEvent.setup();
    const { store } = setup();
    // jsdom's window never has focus of its own; a browser tab the user looks at does.
    const windowFocus = vi.spyOn(document, "hasFocus").mockReturnValue(true);
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    expect(await screen.findByRole("heading", { name: "Allow files to run write_file?" })).toHaveFocus();
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "a1", sessionId: "s-1", outcome: "answered" }));

    await user.click(await screen.findByRole("textbox", { name: "Message" }));
    await user.keyboard("half a thought");
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a2") }));
    await screen.findByRole("heading", { name: "Allow files to run write_file?" });
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveFocus();
    windowFocus.mockRestore();
  });

  it("takes over from an empty composer nobody is typing in, as a question panel does, hiding it", async () => {
    const user = userEvent.setup();
    const { store } = setup();
    const windowFocus = vi.spyOn(document, "hasFocus").mockReturnValue(true);
    await user.click(screen.getByRole("textbox", { name: "Message" }));
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    expect(await screen.findByRole("heading", { name: "Allow files to run write_file?" })).toHaveFocus();
    expect(screen.queryByRole("textbox", { name: "Message" })).toBeNull();
    windowFocus.mockRestore();
  });

  it("arriving while the user is away, takes the focus once they are back", async () => {
    const user = userEvent.setup();
    const { store } = setup();
    const windowFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
    await user.click(screen.getByRole("textbox", { name: "Message" }));
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    const heading = await screen.findByRole("heading", { name: "Allow files to run write_file?" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveFocus();
    windowFocus.mockReturnValue(true);
    await waitFor(() => expect(heading).toHaveFocus());
    windowFocus.mockRestore();
  });

  it("Back from Deny's reason gives the focus to Deny again, for a destructive tool too, never to the page", async () => {
    const user = userEvent.setup();
    const { store, posted } = setup();
    for (const [rpcId, destructive] of [["a1", false], ["a2", true]] as const) {
      act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest(rpcId, { ...call, destructive }) }));
      await user.click(await screen.findByRole("button", { name: "Deny" }));
      expect(screen.getByRole("textbox", { name: /reason/i })).toHaveFocus();
      screen.getByRole("button", { name: "Back" }).focus();
      await user.keyboard("{Enter}");
      expect(screen.getByRole("button", { name: "Deny" })).toHaveFocus();
      act(() => store.getState().applyFrame({ type: "question/resolved", rpcId, sessionId: "s-1", outcome: "aborted" }));
    }
    expect(posted).toEqual([]);
  });

  it("says a call without arguments has none instead of an empty box", async () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1", { server: "clock", tool: "now", arguments: "{}" }) }));
    expect(await screen.findByText("This call has no arguments.")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Arguments" })).toBeNull();
  });

  it("speaks Chinese in zh-CN while keeping the English labels on the wire", async () => {
    const user = userEvent.setup();
    const { store, posted } = setup([], "zh-CN");
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    expect(await screen.findByRole("region", { name: "允许 files 运行 write_file 吗？" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "仅允许这一次" }));
    expect(posted).toEqual([{ type: "answer", rpcId: "a1", sessionId: "s-1", answers: [{ id: "approval", selected: ["Allow once"] }, { id: "approval-reason", selected: [] }] }]);
  });

  it("shows bidi controls and other hidden characters in the arguments and the names as visible markers", async () => {
    const { store } = setup();
    const approval = { server: "no\u200Btes", tool: "write\u202Efdp.exe", arguments: JSON.stringify({ text: "report\u202Etxt.exe\u202C", note: "ok\u2060" }) };
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1", approval) }));
    const card = await screen.findByRole("region", { name: "Allow no⟨U+200B⟩tes to run write⟨U+202E⟩fdp.exe?" });
    expect(card).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Arguments" }).textContent).toBe('{\n  "text": "report⟨U+202E⟩txt.exe⟨U+202C⟩",\n  "note": "ok⟨U+2060⟩"\n}');
  });

  it("never renders a server or tool name as markup", async () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1", { server: "<b>evil</b>", tool: "<img src=x>", arguments: '{"a":"<script>"}' }) }));
    expect(await screen.findByRole("region", { name: "Allow <b>evil</b> to run <img src=x>?" })).toBeInTheDocument();
    expect(document.querySelector("[data-approval-card] b, [data-approval-card] img, [data-approval-card] script")).toBeNull();
  });

  it("asks for a reason only once Deny is chosen, focusing it, and Back returns to the three decisions", async () => {
    const user = userEvent.setup();
    const { store, posted } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    await user.click(await screen.findByRole("button", { name: "Deny" }));
    const reason = screen.getByRole("textbox", { name: "Reason for denying (optional)" });
    expect(reason).toHaveFocus();
    expect(reason).toHaveAttribute("placeholder", "Sent with Deny to Parley's assistant");
    expect(screen.queryByRole("button", { name: "Allow once" })).toBeNull();
    await user.type(reason, "later");
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.queryByRole("textbox", { name: "Reason for denying (optional)" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Deny" }));
    await user.keyboard("{Enter}");
    expect(posted).toEqual([{ type: "answer", rpcId: "a1", sessionId: "s-1", answers: [{ id: "approval", selected: ["Deny"] }, { id: "approval-reason", selected: [], custom: "later" }] }]);
  });

  it("takes no click for its first moments after it replaced a card that held the focus: a double click decides one request", async () => {
    const user = userEvent.setup();
    const { store, posted } = setup();
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    let now = 10_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    act(() => {
      store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") });
      store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a2") });
    });
    await user.click(await screen.findByRole("button", { name: "Allow once" }));
    await waitFor(() => expect(posted.map((body) => body.rpcId)).toEqual(["a1"]));
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "a1", sessionId: "s-1", outcome: "answered" }));
    const next = await screen.findByRole("button", { name: "Allow once" });
    await waitFor(() => expect(next).toBeEnabled());
    // The double click's second half lands where the first card's button was.
    fireEvent.click(next, { detail: 2, clientX: 700, clientY: 560 });
    expect(posted.map((body) => body.rpcId)).toEqual(["a1"]);
    now += 400;
    fireEvent.click(next, { detail: 1, clientX: 700, clientY: 560 });
    await waitFor(() => expect(posted.map((body) => body.rpcId)).toEqual(["a1", "a2"]));
    vi.restoreAllMocks();
  });

  it("keeps the focus on its heading while it sends, so the second press of a double Enter does not answer the question after it", async () => {
    const user = userEvent.setup();
    const stopDropping = dropFocusFromDisabled();
    const { store, posted } = setup();
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    vi.spyOn(performance, "now").mockReturnValue(10_000);
    act(() => {
      store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") });
      store.getState().applyFrame({ type: "question/requested", ...questionRequest("q1", "Ship it?") });
    });
    (await screen.findByRole("button", { name: "Allow once" })).focus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(posted.map((body) => body.rpcId)).toEqual(["a1"]));
    expect(screen.getByRole("heading", { name: "Allow files to run write_file?" })).toHaveFocus();
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "a1", sessionId: "s-1", outcome: "answered" }));
    const yes = await screen.findByRole("radio", { name: /^Yes/ });
    await waitFor(() => expect(yes).toHaveFocus());
    fireEvent.keyDown(yes, { key: "Enter", code: "Enter" });
    expect(posted.map((body) => body.rpcId)).toEqual(["a1"]);
    stopDropping();
    vi.restoreAllMocks();
  });

  it("sends no Deny on the Enter that confirms an IME's text, nor on the second press of the Enter that opened the reason", async () => {
    const user = userEvent.setup();
    const { store, posted } = setup();
    let now = 10_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    (await screen.findByRole("button", { name: "Deny" })).focus();
    await user.keyboard("{Enter}");
    const reason = screen.getByRole("textbox", { name: "Reason for denying (optional)" });
    expect(reason).toHaveFocus();
    fireEvent.keyDown(reason, { key: "Enter", code: "Enter" });
    expect(posted).toEqual([]);
    now += 400;
    // Safari: compositionend first, then the confirming Enter, no longer composing, with the IME's keyCode 229.
    fireEvent.compositionStart(reason);
    fireEvent.change(reason, { target: { value: "日本" } });
    fireEvent.compositionEnd(reason);
    fireEvent.keyDown(reason, { key: "Enter", code: "Enter", keyCode: 229 });
    expect(posted).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.keyDown(reason, { key: "Enter", code: "Enter" });
    expect(posted).toEqual([{ type: "answer", rpcId: "a1", sessionId: "s-1", answers: [{ id: "approval", selected: ["Deny"] }, { id: "approval-reason", selected: [], custom: "日本" }] }]);
    vi.restoreAllMocks();
  });

  it("marks a tool its server calls destructive and makes Deny the default, last button", async () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1", { ...call, destructive: true }) }));
    const card = await screen.findByRole("region", { name: "Allow files to run write_file?" });
    expect(card).toHaveAttribute("data-destructive", "true");
    expect(screen.getByText("Destructive")).toBeVisible();
    expect(screen.getByText(/marks this tool as destructive/)).toHaveTextContent("The files server marks this tool as destructive: it may delete or overwrite data. Deny unless you meant it.");
    const buttons = screen.getAllByRole("button").filter((button) => card.contains(button));
    expect(buttons.map((button) => button.textContent)).toEqual(["Allow for this chat", "Allow once", "Deny"]);
    expect(screen.getByRole("button", { name: "Deny" })).toHaveClass("composer-card__button--primary");
    expect(screen.getByRole("button", { name: "Allow once" })).not.toHaveClass("composer-card__button--primary");
  });

  it("keeps Allow once the default for a tool not marked destructive", async () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...approvalRequest("a1") }));
    expect(await screen.findByRole("button", { name: "Allow once" })).toHaveClass("composer-card__button--primary");
    expect(screen.queryByText("Destructive")).toBeNull();
  });
});
