import { describe, expect, it } from "vitest";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Grant, Message } from "../../protocol/schemas";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { GrantsMenu, type GrantsSource } from "./grants-menu";

function toolRow(approval: "allowed-once" | "allowed-for-chat"): Message {
  return {
    id: `m-${approval}`,
    sessionId: "s-1",
    role: "tool",
    createdAt: "2026-11-30T10:00:00.000Z",
    tool: { callId: "c1", name: "mcp__notes__write_note", args: {}, status: "ok", mcp: { server: "notes", tool: "write_note", approval } },
  };
}

function setup(grants: Grant[]) {
  const store = createSessionStore();
  store.getState().loadSessions([{ id: "s-1", title: "Chat", createdAt: "2026-11-30T09:00:00.000Z", updatedAt: "2026-11-30T09:00:00.000Z", state: "idle" }]);
  const revoked: string[] = [];
  const source: GrantsSource = {
    list: async () => grants,
    revoke: async (sessionId, grant) => void revoked.push(`${sessionId} ${grant.server} ${grant.tool}`),
  };
  render(
    <SessionStoreProvider store={store}>
      <GrantsMenu sessionId="s-1" source={source} />
      <input aria-label="Elsewhere" />
    </SessionStoreProvider>,
  );
  return { store, revoked };
}

describe("GrantsMenu", () => {
  it("stays out of the header until a call in the chat was allowed for the chat", () => {
    const { store } = setup([]);
    act(() => store.getState().applyFrame({ type: "message/upserted", message: toolRow("allowed-once") }));
    expect(screen.queryByRole("button", { name: "Allowed tools" })).toBeNull();
    act(() => store.getState().applyFrame({ type: "message/upserted", message: toolRow("allowed-for-chat") }));
    expect(screen.getByRole("button", { name: "Allowed tools" })).toHaveAttribute("aria-expanded", "false");
  });

  it("lists the chat's grants when opened and revokes one, which leaves the list", async () => {
    const user = userEvent.setup();
    const { store, revoked } = setup([
      { server: "notes", tool: "write_note", grantedAt: "2026-11-30T10:00:00.000Z" },
      { server: "files", tool: "delete", grantedAt: "2026-11-30T10:01:00.000Z" },
    ]);
    act(() => store.getState().applyFrame({ type: "message/upserted", message: toolRow("allowed-for-chat") }));
    await user.click(screen.getByRole("button", { name: "Allowed tools" }));
    const panel = await screen.findByRole("region", { name: "Tools allowed for this chat" });
    expect(await screen.findAllByRole("listitem")).toHaveLength(2);
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["notes · write_noteRevoke", "files · deleteRevoke"]);
    await user.click(screen.getByRole("button", { name: "Revoke write_note from notes" }));
    expect(revoked).toEqual(["s-1 notes write_note"]);
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["files · deleteRevoke"]);
    expect(panel).toBeInTheDocument();
  });

  it("shows hidden characters in a grant's server and tool names as visible markers", async () => {
    const user = userEvent.setup();
    const { store } = setup([{ server: "no\u200Btes", tool: "write\u202Eeton", grantedAt: "2026-11-30T10:00:00.000Z" }]);
    act(() => store.getState().applyFrame({ type: "message/upserted", message: toolRow("allowed-for-chat") }));
    await user.click(screen.getByRole("button", { name: "Allowed tools" }));
    expect((await screen.findByRole("listitem")).textContent).toBe("no⟨U+200B⟩tes · write⟨U+202E⟩etonRevoke");
    expect(screen.getByRole("button", { name: "Revoke write⟨U+202E⟩eton from no⟨U+200B⟩tes" })).toBeInTheDocument();
  });

  it("says when no tool is allowed", async () => {
    const user = userEvent.setup();
    const { store } = setup([]);
    act(() => store.getState().applyFrame({ type: "message/upserted", message: toolRow("allowed-for-chat") }));
    await user.click(screen.getByRole("button", { name: "Allowed tools" }));
    expect(await screen.findByText("No tool is allowed for this chat: every acting call asks first.")).toBeInTheDocument();
  });

  it("closes on Escape inside it, giving focus back to its button, and closes without taking an Escape once focus has gone elsewhere", async () => {
    const user = userEvent.setup();
    const { store } = setup([{ server: "notes", tool: "write_note", grantedAt: "2026-11-30T10:00:00.000Z" }]);
    act(() => store.getState().applyFrame({ type: "message/upserted", message: toolRow("allowed-for-chat") }));
    const toggle = screen.getByRole("button", { name: "Allowed tools" });
    await user.click(toggle);
    const revoke = await screen.findByRole("button", { name: "Revoke write_note from notes" });
    act(() => revoke.focus());
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("region", { name: "Tools allowed for this chat" })).toBeNull();
    expect(toggle).toHaveFocus();

    await user.click(toggle);
    expect(await screen.findByRole("region", { name: "Tools allowed for this chat" })).toBeInTheDocument();
    // Focus moved by the keyboard (as a question panel taking over moves it): the menu closes, and the Escape is the field's.
    const elsewhere = screen.getByRole("textbox", { name: "Elsewhere" });
    act(() => elsewhere.focus());
    expect(screen.queryByRole("region", { name: "Tools allowed for this chat" })).toBeNull();
    const escape = new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true });
    act(() => void elsewhere.dispatchEvent(escape));
    expect(escape.defaultPrevented).toBe(false);
    expect(elsewhere).toHaveFocus();
  });
});
