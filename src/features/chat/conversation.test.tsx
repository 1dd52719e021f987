import { describe, expect, it } from "vitest";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { Conversation } from "./conversation";
import { defineSlotEntry } from "./slot-entries";

function quietly<T>(work: () => T): T {
  const original = console.error;
  console.error = () => undefined;
  try {
    return work();
  } finally {
    console.error = original;
  }
}

describe("Conversation", () => {
  it("keeps Stop and the failing takeover's Dismiss usable when the takeover throws", async () => {
    const user = userEvent.setup();
    const store = createSessionStore();
    store.getState().loadSessions([{ id: "s-1", title: "Chat", createdAt: "2026-11-30T09:00:00.000Z", updatedAt: "2026-11-30T09:00:00.000Z", state: "waiting" }]);
    const calls: string[] = [];
    function Exploding(): never {
      throw new Error("the panel broke");
    }
    const entries = [
      defineSlotEntry<string>({
        key: "question",
        priority: 100,
        select: () => "pending",
        Component: Exploding,
        dismiss: async (match, sessionId) => {
          calls.push(`dismiss ${match} ${sessionId}`);
        },
      }),
    ];
    quietly(() =>
      render(
        <SessionStoreProvider store={store}>
          <Conversation
            sessionId="s-1"
            slotEntries={entries}
            drafts={new Map()}
            onSend={async () => undefined}
            onStop={async (sessionId) => {
              calls.push(`stop ${sessionId}`);
            }}
            fallbackTitle="New chat"
          />
        </SessionStoreProvider>,
      ),
    );
    expect(screen.getByRole("heading", { name: "Chat" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("the panel broke");
    await user.click(screen.getByRole("button", { name: "Stop" }));
    await user.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(calls).toEqual(["stop s-1", "dismiss pending s-1"]);
  });

  it("focuses the composer on load, on New chat and on switching chats, but not while a panel owns the slot", () => {
    const store = createSessionStore();
    store.getState().loadSessions([
      { id: "s-1", title: "One", createdAt: "2026-11-30T09:00:00.000Z", updatedAt: "2026-11-30T09:00:00.000Z", state: "idle" },
      { id: "s-2", title: "Two", createdAt: "2026-11-30T09:00:00.000Z", updatedAt: "2026-11-30T09:00:00.000Z", state: "waiting" },
    ]);
    const entries = [defineSlotEntry<string>({ key: "question", priority: 100, select: ({ sessionId }) => (sessionId === "s-2" ? "pending" : null), Component: () => <p>panel</p> })];
    const view = (sessionId: string | null, focusReady = true) => (
      <SessionStoreProvider store={store}>
        <Conversation sessionId={sessionId} slotEntries={entries} drafts={new Map()} onSend={async () => undefined} onStop={async () => undefined} fallbackTitle="New chat" focusReady={focusReady} />
      </SessionStoreProvider>
    );
    const { rerender } = render(view("s-1", false));
    expect(document.body).toHaveFocus();
    rerender(view("s-1"));
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveFocus();
    act(() => screen.getByRole("textbox", { name: "Message" }).blur());
    rerender(view(null));
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveFocus();
    act(() => screen.getByRole("textbox", { name: "Message" }).blur());
    rerender(view("s-2"));
    expect(document.body).toHaveFocus();
  });
});
