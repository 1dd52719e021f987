import { describe, expect, it, onTestFinished } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Message, Session } from "../../protocol/schemas";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { TurnBar } from "./turn-bar";

const user = (id: string, text: string): Message => ({ id, sessionId: "s-1", role: "user", createdAt: "", text });
const assistant = (id: string, text: string, extra: Partial<Message> = {}): Message => ({ id, sessionId: "s-1", role: "assistant", createdAt: "", text, ...extra });

function setup(messages: Message[], turn: Session["state"], slotTakenOver = false) {
  const store = createSessionStore();
  store.getState().loadTranscript("s-1", messages);
  const calls: string[] = [];
  const props = {
    sessionId: "s-1",
    slotTakenOver,
    onStop: async (sessionId: string) => {
      calls.push(`stop ${sessionId}`);
    },
    onRetry: async (text: string) => {
      calls.push(`retry ${text}`);
    },
  };
  const view = render(
    <SessionStoreProvider store={store}>
      <TurnBar {...props} turn={turn} />
    </SessionStoreProvider>,
  );
  const rerender = (next: Session["state"]) =>
    view.rerender(
      <SessionStoreProvider store={store}>
        <TurnBar {...props} turn={next} />
      </SessionStoreProvider>,
    );
  return { store, calls, rerender };
}

describe("TurnBar", () => {
  it("names who waits: the chat's assistant, or the MCP server whose form was asked during the turn", () => {
    const { store, rerender } = setup([user("u1", "hi")], "waiting");
    expect(screen.getByText(/waiting for your answer/).textContent).toBe("Parley's assistant is waiting for your answer.");
    act(() =>
      store.getState().applyFrame({ type: "question/requested", rpcId: "r1", sessionId: "s-1", createdAt: "", origin: { kind: "mcp-server", name: "walk" }, questions: [{ id: "q", question: "Traveller?" }] }),
    );
    rerender("waiting");
    expect(screen.getByText(/waiting for your answer/).textContent).toBe("The walk server is waiting for your answer.");
    rerender("running");
    expect(screen.getByText(/Parley's assistant/).textContent).not.toMatch(/waiting/);
  });

  it("stops the running turn with Escape when no panel owns the slot", async () => {
    const u = userEvent.setup();
    const { calls } = setup([user("u1", "hi")], "running");
    expect(screen.getByRole("button", { name: "Stop" })).toHaveAttribute("aria-keyshortcuts", "Escape");
    await u.keyboard("{Escape}");
    expect(calls).toEqual(["stop s-1"]);
  });

  it("leaves an Escape typed in another text field (the chat search, empty or not) to that field, and takes the composer's", async () => {
    const u = userEvent.setup();
    const { calls } = setup([user("u1", "hi")], "running");
    const search = document.body.appendChild(Object.assign(document.createElement("input"), { type: "search" }));
    const composer = document.body.appendChild(Object.assign(document.createElement("textarea"), { className: "composer__input" }));
    onTestFinished(() => {
      search.remove();
      composer.remove();
    });
    search.focus();
    await u.keyboard("{Escape}{Escape}");
    expect(calls).toEqual([]);
    composer.focus();
    await u.keyboard("{Escape}");
    expect(calls).toEqual(["stop s-1"]);
  });

  it("while stopping, Stop keeps focus, says it is busy and ignores more presses; Retry likewise while it sends", async () => {
    const u = userEvent.setup();
    const store = createSessionStore();
    store.getState().loadTranscript("s-1", [user("u1", "hi"), assistant("a1", "partial")]);
    const calls: string[] = [];
    let finishStop: () => void = () => undefined;
    let finishRetry: () => void = () => undefined;
    const props = {
      sessionId: "s-1",
      slotTakenOver: false,
      onStop: (sessionId: string) => {
        calls.push(`stop ${sessionId}`);
        return new Promise<void>((resolve) => (finishStop = resolve));
      },
      onRetry: (text: string) => {
        calls.push(`retry ${text}`);
        return new Promise<void>((resolve) => (finishRetry = resolve));
      },
    };
    const view = render(
      <SessionStoreProvider store={store}>
        <TurnBar {...props} turn="running" />
      </SessionStoreProvider>,
    );
    const stop = screen.getByRole("button", { name: "Stop" });
    stop.focus();
    await u.keyboard("{Enter}");
    const stopping = screen.getByRole("button", { name: "Stopping…" });
    expect(stopping).toBe(stop);
    expect(stopping).toHaveAttribute("aria-disabled", "true");
    expect(stopping).toHaveFocus();
    await u.keyboard("{Enter}{Escape} ");
    expect(calls).toEqual(["stop s-1"]);
    await act(async () => finishStop());
    expect(stop).toHaveAttribute("aria-disabled", "false");

    view.rerender(
      <SessionStoreProvider store={store}>
        <TurnBar {...props} turn="idle" />
      </SessionStoreProvider>,
    );
    const retry = screen.getByRole("button", { name: "Retry" });
    expect(retry).not.toBe(stop);
    retry.focus();
    await u.keyboard("{Enter}");
    expect(retry).toHaveAttribute("aria-disabled", "true");
    expect(retry).toHaveFocus();
    await u.keyboard("{Enter} ");
    expect(calls).toEqual(["stop s-1", "retry hi"]);
    await act(async () => finishRetry());
  });

  it("leaves Escape to the panel while it owns the slot", async () => {
    const u = userEvent.setup();
    const { calls } = setup([user("u1", "hi")], "waiting", true);
    await u.keyboard("{Escape}");
    expect(calls).toEqual([]);
  });

  it("keeps running on an Escape that closes an IME's candidates in the composer, as Safari sends it after compositionend", async () => {
    const { calls } = setup([user("u1", "hi")], "running");
    const composer = document.body.appendChild(Object.assign(document.createElement("textarea"), { className: "composer__input" }));
    onTestFinished(() => composer.remove());
    composer.focus();
    fireEvent.compositionStart(composer);
    fireEvent.compositionEnd(composer);
    fireEvent.keyDown(composer, { key: "Escape", keyCode: 229 });
    // In the same tick as compositionend even a plain Escape is the IME's; its key code 229 alone says so at any time.
    fireEvent.keyDown(composer, { key: "Escape", keyCode: 27 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(composer, { key: "Escape", keyCode: 229 });
    expect(calls).toEqual([]);
    fireEvent.keyDown(composer, { key: "Escape", keyCode: 27 });
    expect(calls).toEqual(["stop s-1"]);
  });

  it("offers Retry after a failed reply and sends the last user message again", async () => {
    const u = userEvent.setup();
    const { calls } = setup([user("u1", "first"), assistant("a1", "ok"), user("u2", "second try"), assistant("a2", "Error: the model failed: 500", { failure: { code: "MODEL_FAILED" } })], "idle");
    expect(screen.getByText("The reply failed.")).toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Retry" }));
    expect(calls).toEqual(["retry second try"]);
  });

  it("offers Retry after a reply cut off by the host", () => {
    setup([user("u1", "hi"), assistant("a1", "half", { interrupted: true })], "idle");
    expect(screen.getByText("The reply was cut off.")).toBeInTheDocument();
  });

  it("offers Retry after this tab stopped the turn, and nothing after a good reply", async () => {
    const u = userEvent.setup();
    const { rerender, store } = setup([user("u1", "hi"), assistant("a1", "partial")], "running");
    await u.click(screen.getByRole("button", { name: "Stop" }));
    rerender("idle");
    expect(screen.getByText("The reply was stopped.")).toBeInTheDocument();
    act(() => {
      store.getState().applyFrame({ type: "message/upserted", message: user("u2", "next") });
      store.getState().applyFrame({ type: "message/upserted", message: assistant("a2", "fine") });
    });
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });
});
