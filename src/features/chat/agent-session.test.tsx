import { beforeAll, describe, expect, it, vi } from "vitest";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createQuestionEntry, loadQuestionPanel } from "../../app/question-entry";
import type { Session } from "../../protocol/schemas";
import { LocaleProvider } from "../../i18n/i18n";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { Sidebar } from "../sessions/sidebar";
import { Conversation } from "./conversation";

const AGENT_SESSION: Session = {
  id: "mcp-1",
  title: "Claude Code · 09:05",
  createdAt: "2026-11-30T09:05:00.000Z",
  updatedAt: "2026-11-30T09:05:00.000Z",
  state: "idle",
  agent: { kind: "mcp-client", name: "Claude Code" },
};
const PLAIN_SESSION: Session = { id: "chat-1", title: "Plain chat", createdAt: "2026-11-30T08:00:00.000Z", updatedAt: "2026-11-30T08:00:00.000Z", state: "idle" };

beforeAll(async () => {
  await loadQuestionPanel();
});

function renderBoth(locale?: "zh-CN", state: Session["state"] = "idle") {
  const store = createSessionStore();
  store.getState().loadSessions([{ ...AGENT_SESSION, state }, PLAIN_SESSION]);
  const tree = (sessionId: string) => (
    <SessionStoreProvider store={store}>
      <Sidebar activeSessionId={sessionId} sessionHref={(id) => `#session=${id}`} onSelect={() => undefined} onNewChat={() => undefined} />
      <Conversation sessionId={sessionId} slotEntries={[]} drafts={new Map()} onSend={async () => undefined} onStop={async () => undefined} fallbackTitle="New chat" />
    </SessionStoreProvider>
  );
  return render(locale ? <LocaleProvider initial={locale}>{tree(AGENT_SESSION.id)}</LocaleProvider> : tree(AGENT_SESSION.id));
}

describe("a session an outside agent asks through", () => {
  it("carries an agent badge in the sidebar, and only that session does", () => {
    renderBoth();
    const nav = screen.getByRole("navigation", { name: "Chats" });
    expect(within(nav).getByRole("link", { name: "Claude Code · 09:05 MCP agent" })).toBeInTheDocument();
    expect(within(nav).getByRole("link", { name: "Plain chat" })).toBeInTheDocument();
  });

  it("replaces the composer with who is asking and that replies go through the panel", () => {
    renderBoth();
    expect(screen.getByRole("note")).toHaveTextContent(
      "Claude Code, an outside agent, asks its questions in this chat: answer them in the panel when they appear. Stop cancels what Claude Code is waiting for.",
    );
    expect(screen.queryByRole("textbox", { name: "Message" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Send" })).not.toBeInTheDocument();
  });

  it("says the same in Chinese", () => {
    renderBoth("zh-CN");
    expect(within(screen.getByRole("navigation", { name: "对话" })).getByRole("link", { name: "Claude Code · 09:05 MCP 智能体" })).toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent("Claude Code 是外部智能体，会在此对话中提问：问题出现时请在面板中回答。“停止”会取消 Claude Code 正在等待的提问。");
  });

  it("names the outside agent, never an assistant, while it waits for an answer", () => {
    renderBoth(undefined, "waiting");
    expect(screen.getByText("Claude Code is waiting for your answer.")).toBeVisible();
    expect(screen.queryByText(/assistant/i)).not.toBeInTheDocument();
  });

  it("names it in Chinese while it works", () => {
    renderBoth("zh-CN", "running");
    expect(screen.getByText("Claude Code 正在处理…")).toBeVisible();
  });

  it("gives the focus to its notice once a question answered here goes, never to the page's body", async () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    const user = userEvent.setup();
    const store = createSessionStore();
    store.getState().loadSessions([AGENT_SESSION]);
    const entries = [createQuestionEntry(async () => ({ accepted: true }))];
    render(
      <SessionStoreProvider store={store}>
        <Conversation sessionId={AGENT_SESSION.id} slotEntries={entries} drafts={new Map()} onSend={async () => undefined} onStop={async () => undefined} fallbackTitle="New chat" />
      </SessionStoreProvider>,
    );
    act(() => store.getState().applyFrame({ type: "question/requested", rpcId: "q1", sessionId: AGENT_SESSION.id, questions: [{ id: "go", question: "Ship it?", options: [{ label: "Yes" }, { label: "No" }] }], createdAt: "2026-11-30T09:06:00.000Z" }));
    const yes = await screen.findByRole("radio", { name: /^Yes/ });
    await waitFor(() => expect(yes).toHaveFocus());
    await user.keyboard(" ");
    await waitFor(() => expect(screen.getByRole("heading", { name: "Ship it?" })).toHaveFocus());
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "q1", sessionId: AGENT_SESSION.id, outcome: "answered" }));
    await waitFor(() => expect(screen.getByRole("note")).toHaveFocus());
    vi.restoreAllMocks();
  });
});
