import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import type { PendingRequest, QuestionOrigin } from "../../protocol/schemas";
import { planReviewQuestions } from "../../protocol/plan-review";
import { acceptingRespond } from "./panel-test-kit";
import { QuestionPanel } from "./question-panel";
import { RetiredNotice } from "./retired-notice";
import { resetTypingActivity } from "../../ui/typing-activity";

afterEach(() => {
  resetTypingActivity();
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

/** Matches the innermost element whose whole text is `text`, across the isolated name inside it. */
function sentence(text: string) {
  return (_: string, element: Element | null) => element?.textContent === text && ![...element.children].some((child) => child.textContent === text);
}

const WALK: QuestionOrigin = { kind: "mcp-server", name: "walk" };

function form(origin: QuestionOrigin | undefined, rpcId = "rpc-form"): PendingRequest {
  return {
    rpcId,
    sessionId: "session-1",
    createdAt: "2026-11-30T10:00:00.000Z",
    ...(origin ? { origin } : {}),
    questions: [
      { id: "traveller", question: "Traveller", detail: "Book the walk.\n\nYour full name.", input: { kind: "text", minLength: 2 } },
      { id: "pace", question: "Pace", options: [{ label: "Slow" }, { label: "Fast" }], freeText: false },
    ],
  };
}

function typeIntoOutsideField() {
  const outside = document.createElement("textarea");
  outside.setAttribute("aria-label", "Message");
  document.body.append(outside);
  outside.focus();
  fireEvent.keyDown(outside, { key: "a", code: "KeyA" });
  fireEvent.change(outside, { target: { value: "a draft" } });
}

describe("a form step whose field holds the server's default", () => {
  it("opens by Enter with the default selected, so the number typed replaces it and is what is sent", async () => {
    const user = userEvent.setup();
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const respond = acceptingRespond();
    const request: PendingRequest = {
      ...form(WALK),
      questions: [
        { id: "traveller", question: "Traveller", input: { kind: "text", minLength: 2 } },
        { id: "nights", question: "Nights", input: { kind: "integer", minimum: 1, maximum: 30 }, defaults: { custom: "3" } },
      ],
    };
    render(<QuestionPanel request={request} position={{ index: 0, count: 1 }} respond={respond} />);
    await user.keyboard("Ada Lovelace{Enter}");
    const nights = await screen.findByRole("textbox", { name: "Type your answer" });
    await waitFor(() => expect(nights).toHaveFocus());
    expect(nights).toHaveValue("3");
    await user.keyboard("5");
    expect(nights).toHaveValue("5");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(respond).toHaveBeenCalled());
    expect(respond.mock.calls[0]![0]).toEqual({
      type: "answer",
      rpcId: "rpc-form",
      sessionId: "session-1",
      answers: [
        { id: "traveller", selected: [], custom: "Ada Lovelace" },
        { id: "nights", selected: [], custom: "5" },
      ],
    });
  });
});

describe("who is asking, said once and right", () => {
  it("names the MCP server in the arrival line only, then in the header once the user turns to the panel", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    typeIntoOutsideField();
    render(<QuestionPanel request={form(WALK)} position={{ index: 0, count: 1 }} respond={acceptingRespond()} />);
    expect(await screen.findByText(sentence("The walk server asks 2 questions. Press Alt+Q to answer."))).toBeVisible();
    expect(screen.queryByText(/Asked by/)).not.toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: "q", code: "KeyQ", altKey: true });
    expect(await screen.findByText(/Asked by the/)).toHaveTextContent("Asked by the walk server");
    expect(screen.queryByText(/asks 2 questions/)).not.toBeInTheDocument();
  });

  it("names Parley's assistant when this chat's own agent asks", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    typeIntoOutsideField();
    render(<QuestionPanel request={form(undefined)} position={{ index: 0, count: 1 }} respond={acceptingRespond()} />);
    expect(await screen.findByText("Parley's assistant asks 2 questions. Press Alt+Q to answer.")).toBeVisible();
  });

  it("calls a plan review one plan to review, in the arrival line and the folded bar, not the two questions it is carried in", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    typeIntoOutsideField();
    const plan: PendingRequest = { rpcId: "rpc-plan", sessionId: "s1", createdAt: "2026-01-01T00:00:00.000Z", questions: planReviewQuestions("## Move\n1. Copy the data") };
    render(<QuestionPanel request={plan} position={{ index: 0, count: 1 }} respond={acceptingRespond()} />);
    expect(await screen.findByText("Parley's assistant asks you to review a plan. Press Alt+Q to answer.")).toBeVisible();
    fireEvent.keyDown(document.body, { key: "q", code: "KeyQ", altKey: true });
    await userEvent.keyboard("{Escape}");
    expect(await screen.findByText("A plan waiting for review")).toBeVisible();
  });

  it("names an ACP agent by its title and an outside agent by its client name", () => {
    const view = render(<QuestionPanel request={form({ kind: "acp-agent", name: "qwen", title: "Qwen Code" })} position={{ index: 0, count: 1 }} respond={acceptingRespond()} autoFocus={false} />);
    expect(screen.getByText(/Asked by/)).toHaveTextContent("Asked by Qwen Code");
    view.unmount();
    render(<QuestionPanel request={form({ kind: "mcp-client", name: "Claude Code" }, "rpc-2")} position={{ index: 0, count: 1 }} respond={acceptingRespond()} autoFocus={false} />);
    expect(screen.getByText(/Asked by/)).toHaveTextContent("Asked by Claude Code");
  });

  it("says it waits for the server by name once the answers are sent", async () => {
    const user = userEvent.setup();
    const request: PendingRequest = { ...form(WALK), questions: [{ id: "pace", question: "Pace", options: [{ label: "Slow" }, { label: "Fast" }], freeText: false }] };
    render(<QuestionPanel request={request} position={{ index: 0, count: 1 }} respond={acceptingRespond()} autoFocus={false} />);
    await user.click(screen.getByRole("radio", { name: "Fast" }));
    expect(await screen.findByText(sentence("Sent. Waiting for the walk server…"))).toBeVisible();
  });

  it("puts a server form's message before its first field", async () => {
    render(<QuestionPanel request={form(WALK)} position={{ index: 0, count: 1 }} respond={acceptingRespond()} autoFocus={false} />);
    const message = await screen.findByText("Book the walk.", undefined, { timeout: 5000 });
    const heading = screen.getByRole("heading", { level: 2, name: "Traveller" });
    expect(message.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("keeps a question's detail under its heading when the chat's own agent asks", async () => {
    render(<QuestionPanel request={form(undefined)} position={{ index: 0, count: 1 }} respond={acceptingRespond()} autoFocus={false} />);
    const detail = await screen.findByText("Book the walk.", undefined, { timeout: 5000 });
    const heading = screen.getByRole("heading", { level: 2, name: "Traveller" });
    expect(detail.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy();
  });

  it("calls a lost host a lost host, and a server that stopped waiting by its name", () => {
    const view = render(<RetiredNotice retired={{ request: form(WALK), reason: "host-restarted" }} onDismiss={() => undefined} />);
    expect(screen.getByRole("region", { name: "Host lost: it restarted, and the walk server no longer waits for these answers" })).toBeInTheDocument();
    view.unmount();
    render(<RetiredNotice retired={{ request: form(WALK, "rpc-3"), reason: "stopped" }} onDismiss={() => undefined} />);
    expect(screen.getByRole("region", { name: "The walk server stopped waiting" })).toBeInTheDocument();
  });

  it("says the same in Chinese", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    typeIntoOutsideField();
    render(
      <LocaleProvider initial="zh-CN" setsDocumentLanguage={false}>
        <QuestionPanel request={form(WALK)} position={{ index: 0, count: 1 }} respond={acceptingRespond()} />
        <RetiredNotice retired={{ request: form(undefined, "rpc-4"), reason: "host-restarted" }} onDismiss={() => undefined} />
      </LocaleProvider>,
    );
    expect(await screen.findByText(sentence("walk 服务器提出了 2 个问题。按 Alt+Q 回答。"))).toBeVisible();
    expect(screen.getByRole("region", { name: "主机已丢失：它已重启，Parley 助手不再等待这些回答" })).toBeInTheDocument();
  });
});
