import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { itKeepsCatalogParity } from "../../i18n/catalog-testing";
import { choiceAnswer } from "../../protocol/approval";
import type { Receipt, RespondRequest } from "../../protocol/schemas";
import { AcpApprovalCard, type AcpApprovalCardProps } from "./acp-approval-card";
import { acpApprovalCopy } from "./acp-approval-copy";

const request: AcpApprovalCardProps["request"] = {
  rpcId: "r1",
  sessionId: "s1",
  createdAt: "2026-01-01T00:00:00.000Z",
  questions: [{ id: "approval", question: "Allow?", options: [{ label: "Allow" }] }],
  origin: { kind: "acp-agent", name: "qwen", title: "Qwen Code" },
  approval: {
    server: "Qwen Code",
    tool: "Edit src/app.ts",
    arguments: '{"file_path": "/w/src/app.ts"}',
    choices: ["Allow", "Always allow", "Reject", "Never allow"],
    choiceKinds: ["allow_once", "allow_always", "reject_once", "reject_always"],
    toolCall: { toolCallId: "c1", title: "Edit src/app.ts", kind: "edit", locations: [{ path: "/w/src/app.ts", line: 2 }], content: [{ type: "diff", path: "/w/src/app.ts", oldText: "b = 2\n", newText: "b = 3\n" }] },
  },
};

describe("acp-permission: the card of a permission request of an ACP agent", () => {
  describe("acpApprovalCopy", () => {
    itKeepsCatalogParity(acpApprovalCopy);
  });

  it("shows the edit's diff and offers the agent's options by name in kind order; an allow is sent at once by its label", async () => {
    const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
    render(<AcpApprovalCard request={request} respond={respond} />);
    expect(screen.getByRole("region", { name: "Qwen Code asks to run: Edit src/app.ts" })).toBeTruthy();
    // The diff's renderer loads with the first diff shown; until then the region holds the new text.
    await waitFor(() => expect(screen.getByRole("region", { name: "Changes to /w/src/app.ts" }).textContent).toContain("+b = 3"));
    expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual(["Allow", "Always allow", "Reject", "Never allow"]);
    await userEvent.click(screen.getByRole("button", { name: "Always allow" }));
    expect(respond).toHaveBeenCalledWith({ type: "answer", rpcId: "r1", sessionId: "s1", answers: choiceAnswer("Always allow") });
  });

  it("says so when an edit has too many changes to compare: the new text whole, its removed lines not shown", async () => {
    const lines = (word: string) => Array.from({ length: 2_000 }, (_, index) => `${word} ${index}`).join("\n");
    const big = { ...request, approval: { ...request.approval!, toolCall: { ...request.approval!.toolCall!, content: [{ type: "diff" as const, path: "/w/data.txt", oldText: lines("old"), newText: lines("new") }] } } };
    render(<AcpApprovalCard request={big} respond={vi.fn()} />);
    expect(await screen.findByText("Too many changes to compare: the new text is shown whole, and the lines it removes are not shown.")).toBeTruthy();
  });

  it("shows the hidden characters of the agent's option names and paths as markers, on the buttons the human presses too", async () => {
    const user = userEvent.setup();
    const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
    const path = "/repo/\u202Egnp.sh";
    const hostile: AcpApprovalCardProps["request"] = {
      ...request,
      approval: {
        ...request.approval,
        choices: ["Allow \u202Eecno", "Reject\u200B"],
        choiceKinds: ["allow_once", "reject_once"],
        toolCall: { ...request.approval.toolCall!, locations: [{ path }], content: [{ type: "diff", path, newText: "x\n" }] },
      },
    };
    render(<AcpApprovalCard request={hostile} respond={respond} />);
    expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual(["Allow ⟨U+202E⟩ecno", "Reject⟨U+200B⟩"]);
    expect(screen.getByRole("list", { name: "Where" }).textContent).toBe("/repo/⟨U+202E⟩gnp.sh");
    await waitFor(() => expect(screen.getByRole("region", { name: "Changes to /repo/⟨U+202E⟩gnp.sh" }).textContent).toContain("+x"));
    await user.click(screen.getByRole("button", { name: "Reject⟨U+200B⟩" }));
    expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual(["Back", "Reject⟨U+200B⟩"]);
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.getByRole("button", { name: "Reject⟨U+200B⟩" })).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Allow ⟨U+202E⟩ecno" }));
    expect(respond).toHaveBeenCalledWith({ type: "answer", rpcId: "r1", sessionId: "s1", answers: choiceAnswer("Allow \u202Eecno") });
  });

  it("holds the focus on its heading while it sends, and the card after it takes no click for its first moments: a double click decides one request", async () => {
    let now = 10_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
    const { rerender } = render(<AcpApprovalCard key="r1" request={request} respond={respond} />);
    await userEvent.click(screen.getByRole("button", { name: "Allow" }));
    expect(screen.getByRole("heading", { name: "Qwen Code asks to run: Edit src/app.ts" })).toHaveFocus();
    rerender(<AcpApprovalCard key="r2" request={{ ...request, rpcId: "r2" }} respond={respond} />);
    fireEvent.click(screen.getByRole("button", { name: "Allow" }), { detail: 2, clientX: 600, clientY: 500 });
    expect(respond.mock.calls.map(([body]) => body.rpcId)).toEqual(["r1"]);
    now += 400;
    fireEvent.click(screen.getByRole("button", { name: "Allow" }), { detail: 1, clientX: 600, clientY: 500 });
    await waitFor(() => expect(respond.mock.calls.map(([body]) => body.rpcId)).toEqual(["r1", "r2"]));
    vi.restoreAllMocks();
  });

  it("takes the focus on its heading when shown to a user who is here and not typing, as the MCP card does", () => {
    const windowFocus = vi.spyOn(document, "hasFocus").mockReturnValue(true);
    render(<AcpApprovalCard request={request} respond={vi.fn()} />);
    expect(screen.getByRole("heading", { name: "Qwen Code asks to run: Edit src/app.ts" })).toHaveFocus();
    windowFocus.mockRestore();
  });

  it("Back from a reject's reason gives the focus to that reject again, never to the page", async () => {
    const user = userEvent.setup();
    const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
    render(<AcpApprovalCard request={request} respond={respond} />);
    await user.click(screen.getByRole("button", { name: "Never allow" }));
    screen.getByRole("button", { name: "Back" }).focus();
    await user.keyboard("{Enter}");
    expect(screen.getByRole("button", { name: "Never allow" })).toHaveFocus();
    expect(respond).not.toHaveBeenCalled();
  });

  it("asks a reject for its optional reason first and sends it with the reject's label", async () => {
    const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
    render(<AcpApprovalCard request={request} respond={respond} />);
    await userEvent.click(screen.getByRole("button", { name: "Never allow" }));
    expect(respond).not.toHaveBeenCalled();
    await userEvent.type(screen.getByRole("textbox", { name: /Reason/ }), "use the test folder");
    await userEvent.click(screen.getByRole("button", { name: "Never allow" }));
    expect(respond).toHaveBeenCalledWith({ type: "answer", rpcId: "r1", sessionId: "s1", answers: choiceAnswer("Never allow", "use the test folder") });
  });
});
