import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import type { PendingRequest } from "../../protocol/schemas";
import { loadDraft, saveDraft } from "./draft-storage";
import { draftedAnswers, draftedText, RetiredNotice } from "./retired-notice";

const request: PendingRequest = {
  rpcId: "rpc-gone",
  sessionId: "s-1",
  createdAt: "2026-11-30T10:00:00.000Z",
  questions: [
    { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm" }, { label: "npm" }] },
    { id: "constructor", question: "Project name?" },
    { id: "extras", question: "Extras?", multiSelect: true, options: [{ label: "ESLint" }, { label: "Vitest" }] },
  ],
};

const draft = {
  drafts: new Map([
    ["pkg", { selected: ["npm"], custom: "", skipped: false }],
    ["constructor", { selected: [], custom: "parley", skipped: false }],
    ["extras", { selected: [], custom: "", skipped: true }],
  ]),
  index: 2,
  collapsed: false,
};

afterEach(() => {
  sessionStorage.clear();
  vi.restoreAllMocks();
});

describe("draftedAnswers", () => {
  it("lists the drafted answers in question order and leaves out skipped and untouched questions", () => {
    const answers = draftedAnswers(request.questions, draft);
    expect(answers).toEqual([
      { id: "pkg", question: "Which package manager?", answer: "npm" },
      { id: "constructor", question: "Project name?", answer: "parley" },
    ]);
    expect(draftedText(answers)).toBe("Which package manager?\nnpm\n\nProject name?\nparley");
  });
});

describe("RetiredNotice", () => {
  it("says the batch was answered in another tab, shows the unsent answers and copies them", async () => {
    saveDraft("rpc-gone", draft);
    const user = userEvent.setup();
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<RetiredNotice retired={{ request, reason: "answered-elsewhere" }} onDismiss={vi.fn()} />);
    const notice = screen.getByRole("region", { name: "Answered in another tab" });
    expect(screen.getByRole("heading", { name: "Answered in another tab" })).toHaveFocus();
    expect(screen.getAllByRole("term").map((node) => node.textContent)).toEqual(["Which package manager?", "Project name?"]);
    expect(screen.getAllByRole("definition").map((node) => node.textContent)).toEqual(["npm", "parley"]);
    await user.click(screen.getByRole("button", { name: "Copy answers" }));
    expect(writeText.mock.calls).toEqual([["Which package manager?\nnpm\n\nProject name?\nparley"]]);
    expect(screen.getByRole("status")).toHaveTextContent("Copied to the clipboard.");
    expect(notice).toBeInTheDocument();
  });

  it("says an answer whose reply never came may be the one taken, never that another tab answered", () => {
    saveDraft("rpc-gone", draft);
    render(<RetiredNotice retired={{ request, reason: "answered-unconfirmed" }} onDismiss={vi.fn()} />);
    const notice = screen.getByRole("region", { name: "Answered, perhaps with these answers: the host's reply to this tab never came" });
    expect(notice).toHaveTextContent("If the answer taken was these, there is nothing more to do.");
    expect(notice).not.toHaveTextContent("another tab");
    expect(notice).not.toHaveTextContent("not sent from this tab");
    expect(screen.getAllByRole("definition").map((node) => node.textContent)).toEqual(["npm", "parley"]);
  });

  it("selects the answers for a manual copy when the clipboard refuses", async () => {
    saveDraft("rpc-gone", draft);
    const user = userEvent.setup();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText: vi.fn(async () => Promise.reject(new Error("denied"))) }, configurable: true });
    render(<RetiredNotice retired={{ request, reason: "host-restarted" }} onDismiss={vi.fn()} />);
    await user.click(screen.getByRole("button", { name: "Copy answers" }));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("status")).toHaveTextContent("The answers are selected: press Ctrl+C (⌘C on a Mac) to copy them.");
    expect(window.getSelection()?.toString()).toContain("parley");
  });

  it("names a host restart and deletes the saved draft when dismissed", async () => {
    saveDraft("rpc-gone", draft);
    const onDismiss = vi.fn();
    render(<RetiredNotice retired={{ request, reason: "host-restarted" }} onDismiss={onDismiss} />);
    expect(screen.getByRole("region", { name: "Host lost: it restarted, and Parley's assistant no longer waits for these answers" })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Dismiss" }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
    expect(loadDraft("rpc-gone")).toBeNull();
  });

  it("speaks Chinese in the Chinese locale", () => {
    saveDraft("rpc-gone", draft);
    render(
      <LocaleProvider initial="zh-CN">
        <RetiredNotice retired={{ request, reason: "dismissed-elsewhere" }} onDismiss={vi.fn()} />
      </LocaleProvider>,
    );
    expect(screen.getByRole("region", { name: "已在另一个标签页中忽略" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "复制回答" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "关闭" })).toBeInTheDocument();
  });
});
