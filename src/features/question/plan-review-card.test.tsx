import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import type { PendingRequest, Receipt, RespondRequest } from "../../protocol/schemas";
import { QuestionPanel } from "./question-panel";

const planRequest: PendingRequest = {
  rpcId: "rpc-plan",
  sessionId: "session-1",
  createdAt: "2026-11-30T10:00:00.000Z",
  questions: [
    {
      id: "plan-review",
      header: "Plan review",
      question: "Approve this plan?",
      detail: "## Steps\n\n1. Write the **schema**\n2. Ship it",
      options: [{ label: "Approve" }, { label: "Keep planning" }],
      intent: { kind: "plan-review", approve: "Approve" },
    },
  ],
};

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

  it("approves with the intent's approve label", async () => {
    const { respond, user } = renderCard();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(respond.mock.calls).toEqual([
      [{ type: "answer", rpcId: "rpc-plan", sessionId: "session-1", answers: [{ id: "plan-review", selected: ["Approve"] }] }],
    ]);
  });

  it("keeps planning with the other option's label", async () => {
    const { respond, user } = renderCard();
    await user.click(screen.getByRole("button", { name: "Keep planning" }));
    expect(respond.mock.calls).toEqual([
      [{ type: "answer", rpcId: "rpc-plan", sessionId: "session-1", answers: [{ id: "plan-review", selected: ["Keep planning"] }] }],
    ]);
  });

  it("keeps planning with feedback as custom text", async () => {
    const { respond, user } = renderCard();
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "Add tests first");
    await user.click(screen.getByRole("button", { name: "Keep planning" }));
    expect(respond.mock.calls).toEqual([
      [{ type: "answer", rpcId: "rpc-plan", sessionId: "session-1", answers: [{ id: "plan-review", selected: [], custom: "Add tests first" }] }],
    ]);
  });

  it("cancels the request on Chat about it", async () => {
    const { respond, user } = renderCard();
    await user.click(screen.getByRole("button", { name: "Chat about it" }));
    expect(respond.mock.calls).toEqual([[{ type: "cancel", rpcId: "rpc-plan", sessionId: "session-1" }]]);
  });

  it("offers no Refuse when the only option is approve", () => {
    const question = { ...planRequest.questions[0]!, options: [{ label: "Approve" }] };
    renderCard({ ...planRequest, questions: [question] });
    expect(screen.queryByRole("button", { name: "Keep planning" })).not.toBeInTheDocument();
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
  });

  it("uses the wizard when the intent does not fit a decision card", () => {
    const question = { ...planRequest.questions[0]!, options: [{ label: "Approve" }, { label: "No" }, { label: "Later" }] };
    renderCard({ ...planRequest, questions: [question] });
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
    expect(screen.queryByText("Approve this plan?")).not.toBeInTheDocument();
  });
});
