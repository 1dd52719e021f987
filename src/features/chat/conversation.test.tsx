import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { Conversation } from "./conversation";
import { defineSlotEntry } from "./slot-election";

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
});
