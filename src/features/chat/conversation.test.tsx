import { describe, expect, it } from "vitest";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { conversationView, storeWithSessions } from "./conversation-testing";
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
    const store = storeWithSessions(["s-1", "Chat", "waiting"]);
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
    const onStop = async (sessionId: string) => {
      calls.push(`stop ${sessionId}`);
    };
    quietly(() => render(conversationView(store, { slotEntries: entries, onStop })));
    expect(screen.getByRole("heading", { name: "Chat" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("the panel broke");
    await user.click(screen.getByRole("button", { name: "Stop" }));
    await user.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(calls).toEqual(["stop s-1", "dismiss pending s-1"]);
  });

  it("focuses the composer on load, on New chat and on switching chats, but not while a panel owns the slot", () => {
    const store = storeWithSessions(["s-1", "One", "idle"], ["s-2", "Two", "waiting"]);
    const entries = [defineSlotEntry<string>({ key: "question", priority: 100, select: ({ sessionId }) => (sessionId === "s-2" ? "pending" : null), Component: () => <p>panel</p> })];
    const view = (sessionId: string | null, focusReady = true) => conversationView(store, { sessionId, slotEntries: entries, focusReady });
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
