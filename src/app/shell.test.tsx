import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Api } from "../client/api";
import type { MuxConnection, MuxOptions } from "../client/mux";
import { LocaleProvider } from "../i18n/i18n";
import { openSessionHash } from "../ui/hash-session";
import { ChatApp } from "./chat-app";

/** An Api for an empty host running the demo model: every other call rejects, so an unexpected one shows. */
function emptyHost(): Api {
  const unexpected = () => Promise.reject(new Error("unexpected call"));
  return {
    health: () => Promise.resolve({ ok: true, hostId: "h", protocol: 2, model: "scripted", mcp: [{ name: "notes", state: "ready", tools: 2 }] }),
    listSessions: () => Promise.resolve({ sessions: [], next: null }),
    createSession: unexpected,
    getSession: unexpected,
    deleteSession: unexpected,
    renameSession: unexpected,
    postMessage: unexpected,
    abort: unexpected,
    respond: unexpected,
  };
}

function renderApp() {
  const opened: MuxOptions[] = [];
  const connect = (options: MuxOptions): MuxConnection => {
    opened.push(options);
    return { status: "connecting", retryNow: () => undefined, close: () => undefined };
  };
  render(
    <LocaleProvider initial="en" setsDocumentLanguage={false}>
      <ChatApp api={emptyHost()} connect={connect} />
    </LocaleProvider>,
  );
  act(() => opened.at(-1)!.onFrame({ type: "hello", protocol: 2, hostId: "h" }));
  return { frame: (frame: Parameters<MuxOptions["onFrame"]>[0]) => act(() => opened.at(-1)!.onFrame(frame)) };
}

/** The app with its phone drawer opened by its Sessions toggle. */
async function openDrawer() {
  const user = userEvent.setup();
  renderApp();
  const toggle = screen.getByRole("button", { name: "Sessions" });
  await user.click(toggle);
  return { user, toggle };
}

afterEach(() => {
  cleanup();
  window.location.hash = "";
});

describe("the app shell", () => {
  it("offers a skip link first that takes the keyboard past the chat list to the message box", async () => {
    const user = userEvent.setup();
    renderApp();
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    await user.tab();
    const skip = screen.getByRole("link", { name: "Skip to the message box" });
    expect(skip).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveFocus();
  });

  it("closes the phone drawer with its Close button and returns focus to the toggle", async () => {
    const { user, toggle } = await openDrawer();
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const close = screen.getByRole("button", { name: "Close the chat list" });
    expect(close).toHaveFocus();
    await user.click(close);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveFocus();
  });

  it("closes the phone drawer when a chat is opened from outside it, as a notification's tap does through the address", async () => {
    const { toggle } = await openDrawer();
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    act(() => openSessionHash("s-elsewhere"));
    await waitFor(() => expect(toggle).toHaveAttribute("aria-expanded", "false"));
  });

  it("keeps the phone drawer open on an Escape that closes an IME's candidates, and closes it on the next", async () => {
    const { toggle } = await openDrawer();
    const close = screen.getByRole("button", { name: "Close the chat list" });
    fireEvent.keyDown(close, { key: "Escape", keyCode: 229 });
    fireEvent.keyDown(close, { key: "Escape", isComposing: true });
    // Safari's Escape right after the composition ended, in the same tick.
    fireEvent.compositionStart(close);
    fireEvent.compositionEnd(close);
    fireEvent.keyDown(close, { key: "Escape", keyCode: 27 });
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.keyDown(close, { key: "Escape", keyCode: 27 });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("lets an Escape the drawer's search used to clear itself leave the drawer open; the next Escape closes it", async () => {
    const { user, toggle } = await openDrawer();
    const search = screen.getByRole("searchbox", { name: "Search chats" });
    await user.type(search, "budget");
    await user.keyboard("{Escape}");
    expect(search).toHaveValue("");
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await user.keyboard("{Escape}");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("shows the demo model's starters, /tool for the ready MCP server, and the / menu's commands", async () => {
    const user = userEvent.setup();
    renderApp();
    expect(await screen.findByRole("button", { name: "/tool of the notes server" })).toBeVisible();
    await user.click(screen.getByRole("button", { name: "/tool of the notes server" }));
    const input = screen.getByRole("textbox", { name: "Message" });
    await waitFor(() => expect(input).toHaveValue("/tool mcp__notes__"));
    await user.clear(input);
    await user.type(input, "/");
    expect(within(screen.getByRole("listbox", { name: "Commands" })).getAllByRole("option").map((option) => option.querySelector(".command-menu__name")?.firstChild?.textContent?.trim())).toEqual(["/ask", "/plan", "/tool", "/echo"]);
  });

  it("counts on the phone's Sessions button the other chats that wait for an answer", () => {
    const { frame } = renderApp();
    const toggle = screen.getByRole("button", { name: "Sessions" });
    for (const id of ["s-a", "s-b"]) {
      frame({ type: "session/upserted", session: { id, title: `Chat ${id}`, createdAt: "2026-12-07T09:00:00.000Z", updatedAt: "2026-12-07T09:00:00.000Z", state: "waiting", revision: 1 } });
      frame({ type: "question/requested", rpcId: `q-${id}`, sessionId: id, questions: [{ id: "go", question: "Go?", options: [{ label: "Yes" }, { label: "No" }] }], createdAt: "2026-12-07T09:00:00.000Z" });
    }
    expect(toggle).toHaveAccessibleName("Sessions, 2 waiting for you");
    expect(toggle.querySelector(".shell__drawer-count")?.textContent).toBe("2");
    act(() => openSessionHash("s-a"));
    expect(toggle).toHaveAccessibleName("Sessions, 1 waiting for you");
    frame({ type: "question/resolved", rpcId: "q-s-b", sessionId: "s-b", outcome: "answered" });
    expect(toggle).toHaveAccessibleName("Sessions");
    expect(toggle.querySelector(".shell__drawer-count")).toBeNull();
  });
});
