import { describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AgentsList } from "../../client/agents-api";
import { itKeepsCatalogParity } from "../../i18n/catalog-testing";
import { LocaleProvider } from "../../i18n/i18n";
import type { Session } from "../../protocol/schemas";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { newChatCopy } from "./new-chat-copy";
import { Sidebar } from "./sidebar";

const AGENTS: AgentsList = {
  agents: [
    { name: "qwen", title: "Qwen Code", state: "ready" },
    { name: "claude", title: "Claude Code", state: "starting" },
    { name: "gemini", title: "Gemini CLI", state: "failed", error: "spawn gemini\u202E ENOENT" },
    { name: "codex", title: "Codex", state: "disabled" },
  ],
  workspaces: ["/srv/code"],
};

const ACP_SESSION: Session = {
  id: "acp-1",
  title: "Fix the tests",
  createdAt: "2026-11-30T09:05:00.000Z",
  updatedAt: "2026-11-30T09:05:00.000Z",
  state: "idle",
  agent: { kind: "acp-agent", name: "qwen", cwd: "/srv/code" },
};

function setup(options: { agents?: AgentsList | null; create?: (agent: string, cwd: string) => Promise<void>; locale?: "zh-CN" } = {}) {
  const store = createSessionStore();
  store.getState().loadSessions([ACP_SESSION]);
  const onNewChat = vi.fn();
  const onNewAgentChat = vi.fn(options.create ?? (async () => undefined));
  const onRefreshAgents = vi.fn();
  const tree = (
    <SessionStoreProvider store={store}>
      <Sidebar
        activeSessionId={null}
        sessionHref={(id) => `#session=${id}`}
        onSelect={() => undefined}
        onNewChat={onNewChat}
        agents={options.agents === undefined ? AGENTS : options.agents}
        onNewAgentChat={onNewAgentChat}
        onRefreshAgents={onRefreshAgents}
      />
      <p>Outside</p>
    </SessionStoreProvider>
  );
  render(options.locale ? <LocaleProvider initial={options.locale}>{tree}</LocaleProvider> : tree);
  return { onNewChat, onNewAgentChat, onRefreshAgents, newChat: screen.getByRole("button", { name: options.locale ? "新对话" : "New chat" }) };
}

describe("New chat with ACP agents", () => {
  describe("newChatCopy", () => {
    itKeepsCatalogParity(newChatCopy);
  });

  it("stays a plain button that starts an assistant chat when no agent is configured", async () => {
    const user = userEvent.setup();
    const { newChat, onNewChat } = setup({ agents: { agents: [] } });
    expect(newChat).not.toHaveAttribute("aria-haspopup");
    await user.click(newChat);
    expect(onNewChat).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  describe("pressed before the host has said which agents it has", () => {
    function early() {
      const store = createSessionStore();
      const onNewChat = vi.fn();
      let answer: (agents: AgentsList | null) => void = () => undefined;
      const known = new Promise<AgentsList | null>((resolve) => (answer = resolve));
      const tree = (agents: AgentsList | null, activeSessionId: string | null = null) => (
        <SessionStoreProvider store={store}>
          <Sidebar activeSessionId={activeSessionId} sessionHref={(id) => `#session=${id}`} onSelect={() => undefined} onNewChat={onNewChat} agents={agents} agentsKnown={known} onNewAgentChat={async () => undefined} onRefreshAgents={() => undefined} />
        </SessionStoreProvider>
      );
      const view = render(tree(null));
      const settle = (agents: AgentsList | null) => {
        view.rerender(tree(agents));
        answer(agents);
      };
      return { onNewChat, settle, answer: (agents: AgentsList | null) => answer(agents), openChat: (id: string) => view.rerender(tree(null, id)), newChat: screen.getByRole("button", { name: "New chat" }) };
    }

    it("waits for the list and then offers the agents, instead of starting an assistant chat", async () => {
      const user = userEvent.setup();
      const { newChat, onNewChat, settle } = early();
      await user.click(newChat);
      await user.click(newChat);
      expect(newChat).toHaveAttribute("aria-busy", "true");
      expect(onNewChat).not.toHaveBeenCalled();
      expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
      settle(AGENTS);
      const dialog = await screen.findByRole("dialog", { name: "New chat" });
      expect(within(dialog).getAllByRole("radio").map((radio) => radio.closest("label")?.textContent)).toEqual(["Parley's assistantThe model Parley runs", "Qwen Codeready", "Claude Codestarting…", "Gemini CLIfailed, a new chat tries to start it again: spawn gemini⟨U+202E⟩ ENOENT", "Codexturned off"]);
      expect(onNewChat).not.toHaveBeenCalled();
    });

    it("is dropped when the human opens a chat before the list comes", async () => {
      const user = userEvent.setup();
      const { newChat, onNewChat, answer, openChat } = early();
      await user.click(newChat);
      openChat(ACP_SESSION.id);
      answer({ agents: [] });
      await waitFor(() => expect(screen.getByRole("button", { name: "New chat" })).not.toHaveAttribute("aria-busy"));
      expect(onNewChat).not.toHaveBeenCalled();
      expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    });

    it("starts an assistant chat once the host says it has no agents or cannot say", async () => {
      for (const agents of [{ agents: [] }, null]) {
        const user = userEvent.setup();
        const { newChat, onNewChat, settle } = early();
        await user.click(newChat);
        await user.click(newChat);
        expect(onNewChat).not.toHaveBeenCalled();
        settle(agents);
        await waitFor(() => expect(onNewChat).toHaveBeenCalledTimes(1));
        await user.click(screen.getByRole("button", { name: "New chat" }));
        // Once known, a press acts at once (a host that could not say is asked no more: the assistant starts).
        await waitFor(() => expect(onNewChat).toHaveBeenCalledTimes(2));
        expect(screen.getByRole("button", { name: "New chat" })).not.toHaveAttribute("aria-busy");
        expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
        cleanup();
      }
    });
  });

  it("offers the assistant and every agent with its state; a failed agent shows why and can be picked, since a new chat starts it again; a turned-off one cannot", async () => {
    const user = userEvent.setup();
    const { newChat, onRefreshAgents } = setup();
    expect(newChat).toHaveAttribute("aria-expanded", "false");
    await user.click(newChat);
    const dialog = await screen.findByRole("dialog", { name: "New chat" });
    expect(newChat).toHaveAttribute("aria-expanded", "true");
    expect(onRefreshAgents).toHaveBeenCalled();
    const radios = within(dialog).getAllByRole("radio");
    expect(radios.map((radio) => radio.closest("label")?.textContent)).toEqual([
      "Parley's assistantThe model Parley runs",
      "Qwen Codeready",
      "Claude Codestarting…",
      "Gemini CLIfailed, a new chat tries to start it again: spawn gemini⟨U+202E⟩ ENOENT",
      "Codexturned off",
    ]);
    expect(within(dialog).getByRole("radio", { name: /Parley's assistant/ })).toBeChecked();
    expect(within(dialog).getByRole("radio", { name: /Parley's assistant/ })).toHaveFocus();
    expect(within(dialog).getByRole("radio", { name: /Gemini CLI/ })).toBeEnabled();
    expect(within(dialog).getByRole("radio", { name: /Codex/ })).toBeDisabled();
    expect(within(dialog).getByRole("radio", { name: /Claude Code/ })).toBeEnabled();
  });

  it("starts an assistant chat when the assistant is kept", async () => {
    const user = userEvent.setup();
    const { newChat, onNewChat, onNewAgentChat } = setup();
    await user.click(newChat);
    await user.click(await screen.findByRole("button", { name: "Start chat" }));
    expect(onNewChat).toHaveBeenCalledTimes(1);
    expect(onNewAgentChat).not.toHaveBeenCalled();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("creates the agent's chat in the folder typed, by keyboard alone, and remembers the folder for that agent", async () => {
    const user = userEvent.setup();
    const { newChat, onNewAgentChat } = setup();
    newChat.focus();
    await user.keyboard("{Enter}");
    await screen.findByRole("dialog", { name: "New chat" });
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("radio", { name: /Qwen Code/ })).toBeChecked();
    const field = screen.getByRole("textbox", { name: "Workspace folder" });
    expect(field).toHaveValue("/srv/code");
    expect(field).toHaveAccessibleDescription("The folder Qwen Code works in, as a full path on the host.");
    await user.clear(field);
    await user.type(field, "/srv/code/app{Enter}");
    expect(onNewAgentChat).toHaveBeenCalledWith("qwen", "/srv/code/app");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(localStorage.getItem("parley.workspace.qwen")).toBe("/srv/code/app");

    await user.click(newChat);
    await user.click(await screen.findByRole("radio", { name: /Qwen Code/ }));
    expect(screen.getByRole("textbox", { name: "Workspace folder" })).toHaveValue("/srv/code/app");
  });

  it("shows a refusal beside the field and keeps what was typed", async () => {
    const user = userEvent.setup();
    const { newChat, onNewAgentChat } = setup({
      create: async () => {
        throw new Error("cwd: /etc is outside the workspaces (parley.agents.json workspaces)");
      },
    });
    await user.click(newChat);
    await user.click(await screen.findByRole("radio", { name: /Qwen Code/ }));
    const field = screen.getByRole("textbox", { name: "Workspace folder" });
    await user.clear(field);
    await user.type(field, "/etc");
    await user.click(screen.getByRole("button", { name: "Start chat" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The chat could not be started: cwd: /etc is outside the workspaces (parley.agents.json workspaces)");
    expect(onNewAgentChat).toHaveBeenCalledWith("qwen", "/etc");
    expect(screen.getByRole("dialog", { name: "New chat" })).toBeInTheDocument();
    expect(field).toHaveValue("/etc");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveFocus();
    expect(localStorage.getItem("parley.workspace.qwen")).toBeNull();
  });

  it("closes on Escape returning focus to New chat, and on a press outside", async () => {
    const user = userEvent.setup();
    const { newChat } = setup();
    await user.click(newChat);
    await screen.findByRole("dialog", { name: "New chat" });
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(newChat).toHaveFocus();

    await user.click(newChat);
    await screen.findByRole("dialog", { name: "New chat" });
    await user.click(screen.getByText("Outside"));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(newChat).toHaveAttribute("aria-expanded", "false");
  });

  it("stays open on the Escape that closes an IME's candidates in the folder field, and closes on the next", async () => {
    const user = userEvent.setup();
    const { newChat } = setup();
    await user.click(newChat);
    const dialog = await screen.findByRole("dialog", { name: "New chat" });
    await user.click(screen.getByRole("radio", { name: /Qwen Code/ }));
    const field = screen.getByRole("textbox");
    fireEvent.compositionStart(field);
    fireEvent.keyDown(field, { key: "Escape", isComposing: true });
    fireEvent.compositionEnd(field);
    fireEvent.keyDown(field, { key: "Escape", keyCode: 229 });
    expect(dialog).toBeInTheDocument();
    fireEvent.keyDown(field, { key: "Escape", keyCode: 27 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.keyDown(field, { key: "Escape", keyCode: 27 });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("speaks Chinese", async () => {
    const user = userEvent.setup();
    const { newChat } = setup({ locale: "zh-CN" });
    await user.click(newChat);
    const dialog = await screen.findByRole("dialog", { name: "新对话" });
    expect(within(dialog).getByRole("radio", { name: /Parley 的助手/ })).toBeChecked();
    expect(within(dialog).getByText("出错，新对话会尝试再次启动它：spawn gemini⟨U+202E⟩ ENOENT")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("radio", { name: /Qwen Code/ }));
    expect(within(dialog).getByRole("textbox", { name: "工作区文件夹" })).toHaveValue("/srv/code");
    expect(within(dialog).getByRole("button", { name: "开始对话" })).toBeEnabled();
  });

  it("names an ACP agent's chat in the list by the agent's title, not as an MCP agent", () => {
    setup();
    expect(screen.getByRole("link", { name: "Fix the tests Qwen Code" })).toBeInTheDocument();
    expect(screen.queryByText("MCP agent")).not.toBeInTheDocument();
  });
});
