import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import { planReviewQuestions } from "../../protocol/plan-review";
import type { PendingRequest, Receipt, RespondRequest } from "../../protocol/schemas";
import { QuestionPanel } from "./question-panel";

const planRequest: PendingRequest = {
  rpcId: "rpc-plan",
  sessionId: "session-1",
  createdAt: "2026-11-30T10:00:00.000Z",
  questions: planReviewQuestions("## Steps\n\n1. Write the **schema**\n2. Ship it"),
};

const skippedNote = { id: "plan-note", selected: [] };

function renderCard(request = planRequest) {
  const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
  render(<QuestionPanel request={request} position={{ index: 0, count: 1 }} respond={respond} autoFocus={false} />);
  return { respond, user: userEvent.setup() };
}

describe("plan-review decision card", () => {
  it("shows the plan as markdown with Approve, Keep planning and Chat about it", async () => {
    renderCard();
    expect(screen.getByRole("region", { name: "Approve this plan?" })).toBeInTheDocument();
    expect(screen.getByText("Plan review")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Steps" })).toBeInTheDocument();
    expect(screen.getByText("schema").tagName).toBe("STRONG");
    expect(screen.getByRole("button", { name: "Approve" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Keep planning" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Chat about it" })).toBeEnabled();
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
  });

  it("shows hidden characters in the plan as visible markers, and wraps its code instead of scrolling it sideways", async () => {
    renderCard({ ...planRequest, questions: planReviewQuestions("1. Rename report\u202Etxt.exe\u202C\n\n```sh\nrm -rf build\u200B/\n```") });
    const item = await screen.findByRole("listitem");
    expect(item.textContent).toBe("Rename report⟨U+202E⟩txt.exe⟨U+202C⟩");
    const code = (await screen.findByText("rm -rf build⟨U+200B⟩/", { exact: false })).closest("pre")!;
    expect(code.closest(".markdown")).toHaveClass("markdown--wrap");
  });

  it.each([
    { name: "approves with the intent's approve label and the note skipped", button: "Approve", note: null },
    { name: "approves with the typed note as the note question's answer", button: "Approve", note: "Ship on Monday" },
    { name: "keeps planning with the other option's label", button: "Keep planning", note: null },
    { name: "keeps planning with the typed note as the feedback", button: "Keep planning", note: "Add tests first" },
  ])("$name", async ({ button, note }) => {
    const { respond, user } = renderCard();
    if (note !== null) await user.type(screen.getByRole("textbox", { name: "Anything to add?" }), note);
    await user.click(screen.getByRole("button", { name: button }));
    const noteAnswer = note === null ? skippedNote : { id: "plan-note", selected: [], custom: note };
    expect(respond.mock.calls).toEqual([[{ type: "answer", rpcId: "rpc-plan", sessionId: "session-1", answers: [{ id: "plan-review", selected: [button] }, noteAnswer] }]]);
  });

  it("only cancels on Chat about it when the app gives it nothing more to do", async () => {
    const { respond, user } = renderCard();
    await user.click(screen.getByRole("button", { name: "Chat about it" }));
    expect(respond.mock.calls).toEqual([[{ type: "cancel", rpcId: "rpc-plan", sessionId: "session-1" }]]);
  });

  it("stops the turn, then cancels, then moves the typed note to the composer on Chat about it", async () => {
    const calls: string[] = [];
    const respond = vi.fn(async (body: RespondRequest): Promise<Receipt> => {
      calls.push(`respond ${body.type}`);
      return { accepted: false, reason: "not-pending", detail: "rpcId rpc-plan is not pending" };
    });
    const planChat = {
      stopTurn: vi.fn(async (sessionId: string) => void calls.push(`stop ${sessionId}`)),
      moveToComposer: vi.fn((sessionId: string, text: string) => void calls.push(`compose ${sessionId} ${text}`)),
    };
    render(<QuestionPanel request={planRequest} position={{ index: 0, count: 1 }} respond={respond} autoFocus={false} planChat={planChat} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole("textbox", { name: "Anything to add?" }), "Why step 2?");
    await user.click(screen.getByRole("button", { name: "Chat about it" }));
    expect(calls).toEqual(["stop session-1", "respond cancel", "compose session-1 Why step 2?"]);
    expect(screen.getByRole("status")).toHaveTextContent("Sent. Waiting for Parley's assistant…");
    expect(screen.getByRole("button", { name: "Approve" })).toBeDisabled();
  });

  it("keeps the card and the note, and says why, when stopping the turn fails", async () => {
    const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
    const planChat = { stopTurn: vi.fn(async () => Promise.reject(new Error("network down"))), moveToComposer: vi.fn() };
    render(<QuestionPanel request={planRequest} position={{ index: 0, count: 1 }} respond={respond} autoFocus={false} planChat={planChat} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole("textbox", { name: "Anything to add?" }), "Why step 2?");
    await user.click(screen.getByRole("button", { name: "Chat about it" }));
    expect(screen.getByRole("status")).toHaveTextContent("network down");
    expect(respond).not.toHaveBeenCalled();
    expect(planChat.moveToComposer).not.toHaveBeenCalled();
    expect(screen.getByRole("textbox", { name: "Anything to add?" })).toHaveValue("Why step 2?");
    expect(screen.getByRole("button", { name: "Chat about it" })).toBeEnabled();
  });

  it("offers no Refuse when the only option is approve", () => {
    const question = { ...planRequest.questions[0]!, options: [{ label: "Approve" }] };
    renderCard({ ...planRequest, questions: [question, planRequest.questions[1]!] });
    expect(screen.queryByRole("button", { name: "Keep planning" })).not.toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Anything to add?" })).toBeInTheDocument();
  });

  it("uses the wizard when the intent does not fit a decision card", () => {
    const question = { ...planRequest.questions[0]!, options: [{ label: "Approve" }, { label: "No" }, { label: "Later" }] };
    renderCard({ ...planRequest, questions: [question, planRequest.questions[1]!] });
    expect(screen.getByRole("radio", { name: "Approve" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Chat about it" })).not.toBeInTheDocument();
  });

  it("shows its own copy in the UI language, not the host's English question text", () => {
    render(
      <LocaleProvider initial="zh-CN">
        <QuestionPanel request={planRequest} position={{ index: 0, count: 1 }} respond={vi.fn()} autoFocus={false} />
      </LocaleProvider>,
    );
    expect(screen.getByRole("region", { name: "批准这个计划吗？" })).toBeInTheDocument();
    expect(screen.getByText("计划审阅")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "批准" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "继续规划" })).toBeEnabled();
    expect(screen.getByRole("textbox", { name: "还有什么要补充的吗？" })).toBeInTheDocument();
    expect(screen.queryByText("Approve this plan?")).not.toBeInTheDocument();
  });
});
