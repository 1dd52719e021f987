import { describe, expect, it, vi } from "vitest";
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PendingRequest, Session } from "../../protocol/schemas";
import { LocaleProvider } from "../../i18n/i18n";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { Sidebar } from "./sidebar";
import { readText } from "../../testing/read-text";

const NOW = new Date(2026, 10, 30, 15, 0);

function session(id: string, daysAgo: number, hour: number): Session {
  const at = new Date(2026, 10, 30 - daysAgo, hour, 0).toISOString();
  return { id, title: `Chat ${id}`, createdAt: at, updatedAt: at, state: "idle" };
}

function question(rpcId: string, sessionId: string): PendingRequest {
  return { rpcId, sessionId, questions: [{ id: "q", question: "Which?", options: [{ label: "A" }] }], createdAt: "2026-11-30T10:00:00.000Z" };
}

function renderSidebar(sessions: Session[], locale: "en" | "zh-CN" = "en", now = () => NOW, onSearch?: (query: string) => Promise<{ sessions: Session[]; next: string | null }>) {
  const store = createSessionStore();
  store.getState().loadSessions(sessions);
  const deleted: string[] = [];
  render(
    <LocaleProvider initial={locale} setsDocumentLanguage={false}>
      <SessionStoreProvider store={store}>
        <button type="button">Outside</button>
        <Sidebar
          activeSessionId={null}
          sessionHref={(id) => `#session=${id}`}
          onSelect={() => undefined}
          onNewChat={() => undefined}
          onRename={async () => undefined}
          onDelete={(id) => deleted.push(id)}
          now={now}
          {...(onSearch ? { onSearch } : {})}
        />
      </SessionStoreProvider>
    </LocaleProvider>,
  );
  return { store, deleted };
}

function groups(): [string | null, string[]][] {
  const nav = screen.getByRole("navigation", { name: /Chats|对话/ });
  return within(nav)
    .getAllByRole("heading", { level: 2 })
    .map((heading) => [heading.textContent, within(screen.getByRole("list", { name: heading.textContent! })).getAllByRole("link").map(readText)]);
}

describe("the sidebar's groups", () => {
  it("lists chats under Today, Yesterday and Earlier, newest first", () => {
    renderSidebar([session("a", 0, 14), session("b", 1, 9), session("c", 4, 9)]);
    expect(groups()).toEqual([
      ["Today", ["Chat a"]],
      ["Yesterday", ["Chat b"]],
      ["Earlier", ["Chat c"]],
    ]);
  });

  it("pins a chat that waits for an answer on top, and returns it to its day once answered", () => {
    const { store } = renderSidebar([session("a", 0, 14), session("b", 3, 9)]);
    act(() => store.getState().applyFrame({ type: "question/requested", ...question("r1", "b") }));
    expect(groups()).toEqual([
      ["Waiting for you", ["Chat b Waiting for answer"]],
      ["Today", ["Chat a"]],
    ]);
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "r1", sessionId: "b", outcome: "answered" }));
    expect(groups()).toEqual([
      ["Today", ["Chat a"]],
      ["Earlier", ["Chat b"]],
    ]);
  });

  it("moves Today's chats under Yesterday just after midnight, with nothing else changing", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    try {
      vi.setSystemTime(new Date(2026, 10, 30, 23, 59, 0));
      renderSidebar([session("a", 0, 14)], "en", () => new Date());
      expect(groups()).toEqual([["Today", ["Chat a"]]]);
      await act(async () => vi.advanceTimersByTimeAsync(2 * 60_000));
      expect(groups()).toEqual([["Yesterday", ["Chat a"]]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("names the groups in Chinese", () => {
    renderSidebar([session("a", 0, 14), session("b", 1, 9), session("c", 4, 9)], "zh-CN");
    expect(groups().map(([name]) => name)).toEqual(["今天", "昨天", "更早"]);
  });

  it("finds a chat not yet named by the title the list shows it with, in the tab's language", async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    // The host matches the titles it stores, in which a new chat is "New chat": it finds nothing for 新对话.
    renderSidebar([{ ...session("a", 0, 14), title: "New chat" }, { ...session("b", 0, 9), title: " " }, session("c", 0, 8)], "zh-CN", () => NOW, async (query) => (asked.push(query), { sessions: [], next: null }));
    const links = () => within(screen.getByRole("navigation", { name: /对话/ })).getAllByRole("link").map(readText);
    await user.type(screen.getByRole("searchbox"), "新对话");
    expect(links()).toEqual(["新对话"]);
    await vi.waitFor(() => expect(asked).toEqual(["新对话"]));
    expect(links()).toEqual(["新对话"]);
    await user.clear(screen.getByRole("searchbox"));
    await user.type(screen.getByRole("searchbox"), "未命名");
    expect(links()).toEqual(["未命名对话"]);
  });

  it("shows the host's default title of a chat not yet named in the tab's language", () => {
    renderSidebar([{ ...session("a", 0, 14), title: "New chat" }, { ...session("b", 0, 9), title: " " }, session("c", 0, 8)], "zh-CN");
    expect(groups()).toEqual([["今天", ["新对话", "未命名对话", "Chat c"]]]);
  });
});

describe("a chat row's … menu", () => {
  it("holds Rename and Delete behind one button per row, opening on its first item", async () => {
    const user = userEvent.setup();
    const { deleted } = renderSidebar([session("a", 0, 14), session("b", 0, 9)]);
    expect(screen.queryByRole("button", { name: /^Delete/ })).toBeNull();
    const button = screen.getByRole("button", { name: "Actions for “Chat a”" });
    expect(button).toHaveAttribute("aria-haspopup", "menu");
    await user.click(button);
    expect(button).toHaveAttribute("aria-expanded", "true");
    const menu = screen.getByRole("menu", { name: "Actions for “Chat a”" });
    expect(within(menu).getAllByRole("menuitem").map((item) => item.textContent)).toEqual(["Rename", "Delete"]);
    expect(within(menu).getByRole("menuitem", { name: "Rename “Chat a”" })).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(within(menu).getByRole("menuitem", { name: "Delete “Chat a”" })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(deleted).toEqual(["a"]);
    expect(screen.queryByRole("menu")).toBeNull();
    // The row goes: the keyboard lands on the next chat, or on the one before for the last.
    expect(screen.getByRole("link", { name: /^Chat b/ })).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Actions for “Chat b”" }));
    await user.keyboard("{End}{Enter}");
    expect([deleted, screen.getByRole("link", { name: /^Chat a/ }) === document.activeElement]).toEqual([["a", "b"], true]);
  });

  it("closes on Escape and returns focus to its button", async () => {
    const user = userEvent.setup();
    renderSidebar([session("a", 0, 14)]);
    const button = screen.getByRole("button", { name: "Actions for “Chat a”" });
    await user.click(button);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute("aria-expanded", "false");
  });

  it("closes on a press outside it", async () => {
    const user = userEvent.setup();
    renderSidebar([session("a", 0, 14)]);
    await user.click(screen.getByRole("button", { name: "Actions for “Chat a”" }));
    await user.click(screen.getByRole("button", { name: "Outside" }));
    expect(screen.queryByRole("menu")).toBeNull();
  });
});
