import { describe, expect, it } from "vitest";
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PendingRequest, Session } from "../../protocol/schemas";
import { LocaleProvider } from "../../i18n/i18n";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { Sidebar } from "./sidebar";

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
    questions: [
      {
        id: "plan-review",
        header: "Plan review",
        question: "Approve this plan?",
        detail: "1. Build",
        options: [{ label: "Approve" }, { label: "Keep planning" }],
        intent: { kind: "plan-review", approve: "Approve" },
      },
    ],
    createdAt: "2026-11-30T10:00:00.000Z",
  };
}

function setup() {
  const store = createSessionStore();
  store.getState().loadSessions([
    session("old", "Older chat", "2026-11-30T08:00:00.000Z"),
    session("new", "Newer chat", "2026-11-30T09:00:00.000Z"),
    session("untitled", "", "2026-11-30T07:00:00.000Z"),
  ]);
  const selected: string[] = [];
  let newChats = 0;
  render(
    <SessionStoreProvider store={store}>
      <Sidebar
        activeSessionId="old"
        sessionHref={(id) => `#session=${id}`}
        onSelect={(id) => selected.push(id)}
        onNewChat={() => {
          newChats += 1;
        }}
      />
    </SessionStoreProvider>,
  );
  return { store, selected, newChats: () => newChats };
}

const link = (name: RegExp) => screen.getByRole("link", { name });

describe("Sidebar", () => {
  it("lists sessions newest first, marks the open one and names untitled ones", () => {
    setup();
    const links = within(screen.getByRole("navigation", { name: "Chats" })).getAllByRole("link");
    expect(links.map((node) => node.textContent)).toEqual(["Newer chat", "Older chat", "Untitled chat"]);
    expect(link(/Older chat/)).toHaveAttribute("aria-current", "page");
    expect(link(/Newer chat/)).not.toHaveAttribute("aria-current");
  });

  it("badges a session Waiting for answer while a question is pending, until it is resolved", () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...question("r1", "new") }));
    expect(link(/Newer chat/)).toHaveTextContent("Newer chatWaiting for answer");
    expect(link(/Older chat/)).toHaveTextContent(/^Older chat$/);
    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "r1", sessionId: "new", outcome: "answered" }));
    expect(link(/Newer chat/)).toHaveTextContent(/^Newer chat$/);
  });

  it("badges a session Plan awaiting review while a plan review is pending", () => {
    const { store } = setup();
    act(() => store.getState().applyFrame({ type: "question/requested", ...planReview("p1", "old") }));
    expect(link(/Older chat/)).toHaveTextContent("Older chatPlan awaiting review");
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
    const store = createSessionStore();
    render(
      <LocaleProvider initial="en">
        <SessionStoreProvider store={store}>
          <Sidebar activeSessionId={null} sessionHref={(id) => `#session=${id}`} onSelect={() => undefined} onNewChat={() => undefined} />
        </SessionStoreProvider>
      </LocaleProvider>,
    );
    await user.selectOptions(screen.getByRole("combobox", { name: "Language" }), "zh-CN");
    expect(screen.getByRole("button", { name: "新对话" })).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "语言" })).toHaveValue("zh-CN");
  });

  it("isolates each chat title so bidi controls in one cannot reorder its badge or the next title", () => {
    const store = createSessionStore();
    store.getState().loadSessions([session("rlo", "\u202Eevorppa", "2026-11-30T08:00:00.000Z")]);
    render(
      <SessionStoreProvider store={store}>
        <Sidebar activeSessionId={null} sessionHref={(id) => `#session=${id}`} onSelect={() => undefined} onNewChat={() => undefined} />
      </SessionStoreProvider>,
    );
    expect(screen.getByText("\u202Eevorppa")).toHaveAttribute("dir", "auto");
  });

  it("offers Show more chats while the list has another page, and asks for it", async () => {
    const user = userEvent.setup();
    const store = createSessionStore();
    store.getState().loadSessions([session("a", "First", "2026-11-30T08:00:00.000Z")], undefined, "cursor-1");
    let asked = 0;
    render(
      <SessionStoreProvider store={store}>
        <Sidebar
          activeSessionId={null}
          sessionHref={(id) => `#session=${id}`}
          onSelect={() => undefined}
          onNewChat={() => undefined}
          onLoadMore={() => {
            asked += 1;
          }}
        />
      </SessionStoreProvider>,
    );
    await user.click(screen.getByRole("button", { name: "Show more chats" }));
    expect(asked).toBe(1);
    act(() => store.getState().loadMoreSessions([session("b", "Second", "2026-11-30T07:00:00.000Z")], null));
    expect(within(screen.getByRole("navigation", { name: "Chats" })).getAllByRole("link").map((node) => node.textContent)).toEqual(["First", "Second"]);
    expect(screen.queryByRole("button", { name: "Show more chats" })).toBeNull();
  });
});
