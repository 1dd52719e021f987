import { describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { planReviewQuestions } from "../../protocol/plan-review";
import type { PendingRequest, Session } from "../../protocol/schemas";
import { LocaleProvider } from "../../i18n/i18n";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { Sidebar, type SidebarProps } from "./sidebar";

function session(id: string, title: string, createdAt: string): Session {
  return { id, title, createdAt, updatedAt: createdAt, state: "idle" };
}

function question(rpcId: string, sessionId: string): PendingRequest {
  return { rpcId, sessionId, questions: [{ id: "q", question: "Which?", options: [{ label: "A" }] }], createdAt: "2026-11-30T10:00:00.000Z" };
}

function planReview(rpcId: string, sessionId: string): PendingRequest {
  return {
    rpcId,
    sessionId,
    questions: planReviewQuestions("1. Build"),
    createdAt: "2026-11-30T10:00:00.000Z",
  };
}

/** Renders the sidebar over a fresh store holding `sessions` (none loaded when null), with `props` over inert defaults. */
function renderSidebar(sessions: Session[] | null, props: Partial<SidebarProps> = {}, cursor?: string) {
  const store = createSessionStore();
  if (sessions) store.getState().loadSessions(sessions, undefined, cursor);
  render(
    <LocaleProvider initial="en">
      <SessionStoreProvider store={store}>
        <Sidebar activeSessionId={null} sessionHref={(id) => `#session=${id}`} onSelect={() => undefined} onNewChat={() => undefined} {...props} />
      </SessionStoreProvider>
    </LocaleProvider>,
  );
  return store;
}

function setup() {
  const selected: string[] = [];
  let newChats = 0;
  const sessions = [session("old", "Older chat", "2026-11-30T08:00:00.000Z"), session("new", "Newer chat", "2026-11-30T09:00:00.000Z"), session("untitled", "", "2026-11-30T07:00:00.000Z")];
  const store = renderSidebar(sessions, {
    activeSessionId: "old",
    onSelect: (id) => selected.push(id),
    onNewChat: () => {
      newChats += 1;
    },
  });
  return { store, selected, newChats: () => newChats };
}

const link = (name: RegExp) => screen.getByRole("link", { name });
const chatTitles = () => within(screen.getByRole("navigation", { name: "Chats" })).queryAllByRole("link").map((node) => node.textContent);

describe("Sidebar", () => {
  it("lists sessions newest first, marks the open one and names untitled ones", () => {
    setup();
    expect(chatTitles()).toEqual(["Newer chat", "Older chat", "Untitled chat"]);
    expect(link(/Older chat/)).toHaveAttribute("aria-current", "page");
    expect(link(/Newer chat/)).not.toHaveAttribute("aria-current");
  });

  it("badges a session Waiting for answer while a question is pending, until it is resolved", () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...question("r1", "new") }));
    expect(link(/Newer chat/)).toHaveTextContent("Newer chat Waiting for answer");
    expect(link(/Older chat/)).toHaveTextContent(/^Older chat$/);
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "r1", sessionId: "new", outcome: "answered" }));
    expect(link(/Newer chat/)).toHaveTextContent(/^Newer chat$/);
  });

  it("badges a session Plan awaiting review while a plan review is pending", () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...planReview("p1", "old") }));
    expect(link(/Older chat/)).toHaveTextContent("Older chat Plan awaiting review");
  });

  it("selects a session on click and starts a new chat with the New chat button", async () => {
    const user = userEvent.setup();
    const { selected, newChats } = setup();
    await user.click(link(/Newer chat/));
    await user.click(screen.getByRole("button", { name: "New chat" }));
    expect(selected).toEqual(["new"]);
    expect(newChats()).toBe(1);
  });

  it("switches the UI language with the language select", async () => {
    const user = userEvent.setup();
    renderSidebar(null);
    await user.selectOptions(screen.getByRole("combobox", { name: "Language" }), "zh-CN");
    expect(screen.getByRole("button", { name: "新对话" })).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "语言" })).toHaveValue("zh-CN");
  });

  it("says the chats could not be loaded, not that there are none, while the list failed, and keeps a list it has", () => {
    renderSidebar(null, { listFailed: true });
    const nav = screen.getByRole("navigation", { name: "Chats" });
    expect(nav).toHaveTextContent("The chats could not be loaded.");
    expect(nav).not.toHaveTextContent("No chats yet.");
    cleanup();
    renderSidebar([session("a", "Kept", "2026-11-30T08:00:00.000Z")], { listFailed: true });
    expect(chatTitles()).toEqual(["Kept"]);
    expect(screen.getByRole("navigation", { name: "Chats" })).not.toHaveTextContent("The chats could not be loaded.");
  });

  it("isolates each chat title so bidi controls in one cannot reorder its badge or the next title", () => {
    renderSidebar([session("rlo", "\u202Eevorppa", "2026-11-30T08:00:00.000Z")]);
    expect(screen.getByText("\u202Eevorppa")).toHaveAttribute("dir", "auto");
  });

  it("offers Show more chats while the list has another page, and asks for it", async () => {
    const user = userEvent.setup();
    let asked = 0;
    const onLoadMore = () => {
      asked += 1;
    };
    const store = renderSidebar([session("a", "First", "2026-11-30T08:00:00.000Z")], { onLoadMore }, "cursor-1");
    await user.click(screen.getByRole("button", { name: "Show more chats" }));
    expect(asked).toBe(1);
    act(() => store.getState().loadMoreSessions([session("b", "Second", "2026-11-30T07:00:00.000Z")], null));
    expect(chatTitles()).toEqual(["First", "Second"]);
    expect(screen.queryByRole("button", { name: "Show more chats" })).toBeNull();
  });

  it("renames a chat inline: Enter saves the trimmed title, Escape cancels", async () => {
    const user = userEvent.setup();
    const renamed: [string, string][] = [];
    const onRename = async (id: string, title: string) => {
      renamed.push([id, title]);
    };
    renderSidebar([session("a", "Old title", "2026-11-30T08:00:00.000Z")], { onRename });
    await user.click(await screen.findByRole("button", { name: "Actions for “Old title”" }));
    await user.click(screen.getByRole("menuitem", { name: "Rename “Old title”" }));
    // The editor's code loads with the first rename.
    const field = await screen.findByRole("textbox", { name: "Chat title" });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, "  New title  {Enter}");
    expect(renamed).toEqual([["a", "New title"]]);
    expect(screen.queryByRole("textbox", { name: "Chat title" })).toBeNull();
    await user.click(await screen.findByRole("button", { name: "Actions for “Old title”" }));
    await user.click(screen.getByRole("menuitem", { name: "Rename “Old title”" }));
    await user.type(screen.getByRole("textbox", { name: "Chat title" }), " changed{Escape}");
    expect(renamed).toEqual([["a", "New title"]]);
    expect(screen.getByRole("link", { name: "Old title" })).toBeInTheDocument();
  });

  it("keeps the field open and says why when the rename fails", async () => {
    const user = userEvent.setup();
    const onRename = async () => {
      throw new Error("Could not rename. This chat no longer exists.");
    };
    renderSidebar([session("a", "Title", "2026-11-30T08:00:00.000Z")], { onRename });
    await user.click(await screen.findByRole("button", { name: "Actions for “Title”" }));
    await user.click(screen.getByRole("menuitem", { name: "Rename “Title”" }));
    await user.type(await screen.findByRole("textbox", { name: "Chat title" }), " 2{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not rename. This chat no longer exists.");
    expect(screen.getByRole("textbox", { name: "Chat title" })).toHaveValue("Title 2");
  });

  it("asks to delete a chat and leaves hidden chats out of the list", async () => {
    const user = userEvent.setup();
    const deleted: string[] = [];
    renderSidebar([session("a", "Keep", "2026-11-30T08:00:00.000Z"), session("b", "Hidden", "2026-11-30T07:00:00.000Z")], { onDelete: (id) => deleted.push(id), hiddenSessionIds: new Set(["b"]) });
    expect(chatTitles()).toEqual(["Keep"]);
    await user.click(await screen.findByRole("button", { name: "Actions for “Keep”" }));
    await user.click(screen.getByRole("menuitem", { name: "Delete “Keep”" }));
    expect(deleted).toEqual(["a"]);
  });

  it("filters loaded titles at once and adds the host's matches by title and content", async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    let answer: (page: { sessions: Session[]; next: string | null }) => void = () => undefined;
    const onSearch = (query: string) => {
      asked.push(query);
      return new Promise<{ sessions: Session[]; next: string | null }>((resolve) => {
        answer = resolve;
      });
    };
    renderSidebar([session("a", "Budget plan", "2026-11-30T08:00:00.000Z"), session("b", "Holiday", "2026-11-30T07:00:00.000Z")], { onSearch });
    await user.type(screen.getByRole("searchbox", { name: "Search chats" }), "BUDGET");
    expect(chatTitles()).toEqual(["Budget plan"]);
    expect(screen.getByRole("status")).toHaveTextContent("Searching…");
    await vi.waitFor(() => expect(asked).toEqual(["BUDGET"]));
    act(() => answer({ sessions: [session("c", "Trip", "2026-11-30T09:00:00.000Z")], next: null }));
    await vi.waitFor(() => expect(chatTitles()).toEqual(["Trip", "Budget plan"]));
    await user.clear(screen.getByRole("searchbox", { name: "Search chats" }));
    await user.type(screen.getByRole("searchbox", { name: "Search chats" }), "zzz");
    await vi.waitFor(() => expect(asked).toEqual(["BUDGET", "zzz"]));
    act(() => answer({ sessions: [], next: null }));
    expect(await screen.findByText("No chat matches “zzz”.")).toBeInTheDocument();
    await user.keyboard("{Escape}");
    expect(screen.getByRole("searchbox", { name: "Search chats" })).toHaveValue("");
    expect(chatTitles()).toEqual(["Budget plan", "Holiday"]);
  });

  it("keeps the query on the Escape that closes an IME's candidates, and clears it on the next Escape", async () => {
    renderSidebar([session("a", "Budget plan", "2026-11-30T08:00:00.000Z"), session("b", "Holiday", "2026-11-30T07:00:00.000Z")], { onSearch: async () => ({ sessions: [], next: null }) });
    const box = screen.getByRole("searchbox", { name: "Search chats" });
    fireEvent.compositionStart(box);
    fireEvent.change(box, { target: { value: "bud" } });
    fireEvent.compositionEnd(box);
    // Safari sends it after compositionend, not composing, with key code 229.
    fireEvent.keyDown(box, { key: "Escape", keyCode: 229 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(box, { key: "Escape", keyCode: 229 });
    expect(box).toHaveValue("bud");
    await vi.waitFor(() => expect(chatTitles()).toEqual(["Budget plan"]));
    fireEvent.keyDown(box, { key: "Escape", keyCode: 27 });
    expect(box).toHaveValue("");
    await vi.waitFor(() => expect(chatTitles()).toEqual(["Budget plan", "Holiday"]));
  });

  it("keeps the host's matches listed while the next keystroke's search loads, and forgets them once the search is cleared", async () => {
    const user = userEvent.setup();
    const answers: ((page: { sessions: Session[]; next: string | null }) => void)[] = [];
    const onSearch = () => new Promise<{ sessions: Session[]; next: string | null }>((resolve) => void answers.push(resolve));
    const trip = session("c", "Trip", "2026-11-30T09:00:00.000Z");
    renderSidebar([session("a", "Budget plan", "2026-11-30T08:00:00.000Z")], { onSearch });
    const box = screen.getByRole("searchbox", { name: "Search chats" });
    await user.type(box, "tri");
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    act(() => answers[0]!({ sessions: [trip], next: null }));
    await vi.waitFor(() => expect(chatTitles()).toEqual(["Trip"]));
    await user.type(box, "p");
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    expect([chatTitles(), screen.getByRole("status").textContent]).toEqual([["Trip"], "Searching…"]);
    act(() => answers[1]!({ sessions: [], next: null }));
    expect(await screen.findByText("No chat matches “trip”.")).toBeInTheDocument();
    expect(chatTitles()).toEqual([]);
    await user.clear(box);
    await user.type(box, "x");
    expect([chatTitles(), screen.getByRole("status").textContent]).toEqual([[], "Searching…"]);
  });
});
