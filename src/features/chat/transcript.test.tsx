import { Profiler } from "react";
import { describe, expect, it } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Message } from "../../protocol/schemas";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { Composer } from "./composer";
import { GROUP_ROWS, TRANSCRIPT_WINDOW_ROWS, Transcript } from "./transcript";

function messages(count: number): Message[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `m${index}`,
    sessionId: "s-1",
    role: index % 2 === 0 ? "user" : "assistant",
    createdAt: "2026-11-30T10:00:00.000Z",
    text: `message number ${index}`,
  }));
}

function setup(count: number) {
  const store = createSessionStore();
  store.getState().loadTranscript("s-1", messages(count));
  const commits: string[] = [];
  render(
    <SessionStoreProvider store={store}>
      <Profiler id="transcript" onRender={(_id, phase) => commits.push(phase)}>
        <Transcript sessionId="s-1" />
      </Profiler>
      <Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={async () => undefined} />
    </SessionStoreProvider>,
  );
  const rows = () => within(screen.getByRole("region", { name: "Messages" })).getAllByRole("listitem");
  return { store, commits, rows };
}

describe("Transcript", () => {
  it("shows an empty reply as thinking while it runs, and as cut off once its host died before its first word", () => {
    const { store, rows } = setup(1);
    const reply: Message = { id: "m1", sessionId: "s-1", role: "assistant", createdAt: "2026-11-30T10:00:00.000Z", text: "" };
    act(() => store.getState().applyFrame({ type: "message/upserted", message: reply }));
    const userRow = rows()[0]!.textContent;
    expect(userRow).toMatch(/^You: message number 0/);
    expect(rows().map((row) => row.textContent)).toEqual([userRow, "Assistant: Thinking…"]);
    act(() => store.getState().applyFrame({ type: "message/upserted", message: { ...reply, interrupted: true } }));
    expect(rows().map((row) => row.textContent)).toEqual([userRow, "Assistant: The reply was cut off."]);
  });

  it("renders the newest rows of a 5,000-message session and the rest on demand", () => {
    const { rows } = setup(5000);
    expect(rows()).toHaveLength(TRANSCRIPT_WINDOW_ROWS);
    expect(rows().at(-1)).toHaveTextContent("message number 4999");
    expect(rows()[0]).toHaveTextContent(`message number ${5000 - TRANSCRIPT_WINDOW_ROWS}`);
    fireEvent.click(screen.getByRole("button", { name: "Show earlier messages" }));
    expect(rows()).toHaveLength(2 * TRANSCRIPT_WINDOW_ROWS);
    expect(rows()[0]).toHaveTextContent(`message number ${5000 - 2 * TRANSCRIPT_WINDOW_ROWS}`);
  }, 30_000);

  it("keeps its rows in one list, in groups of GROUP_ROWS the browser skips off screen, each holding its rows' guessed height", () => {
    const { rows } = setup(25);
    const list = within(screen.getByRole("region", { name: "Messages" })).getByRole("list");
    expect(within(list).getAllByRole("listitem")).toEqual(rows());
    const groups = [...list.children] as HTMLElement[];
    expect(groups.map((group) => [group.className, group.getAttribute("role"), group.children.length, group.style.containIntrinsicBlockSize])).toEqual([
      ["transcript__group", null, GROUP_ROWS, `auto ${GROUP_ROWS * 64}px`],
      ["transcript__group", null, GROUP_ROWS, `auto ${GROUP_ROWS * 64}px`],
      ["transcript__group", null, 5, "auto 320px"],
    ]);
    expect(groups.flatMap((group) => [...group.children].map((row) => row.textContent))).toEqual(rows().map((row) => row.textContent));
  });

  it("offers no earlier messages when the whole session fits", () => {
    const { rows } = setup(3);
    expect(rows()).toHaveLength(3);
    expect(screen.queryByRole("button", { name: "Show earlier messages" })).toBeNull();
  });

  it("re-renders nothing of the transcript while the user types in the composer", async () => {
    const user = userEvent.setup();
    const { commits } = setup(5000);
    const before = commits.length;
    await user.type(screen.getByRole("textbox", { name: "Message" }), "typing away");
    expect(commits.length).toBe(before);
  }, 30_000);

  it("appends streamed text to the last row", () => {
    const { store, rows } = setup(4);
    act(() => {
      store.getState().applyFrame({ type: "message/upserted", message: { id: "live", sessionId: "s-1", role: "assistant", createdAt: "", text: "" } });
      store.getState().applyFrame({ type: "message/delta", sessionId: "s-1", messageId: "live", text: "Hello" });
      store.getState().applyFrame({ type: "message/delta", sessionId: "s-1", messageId: "live", text: ", world" });
    });
    expect(rows()).toHaveLength(5);
    expect(rows().at(-1)).toHaveTextContent("Hello, world");
  });

  it("shows user text as plain text, never as markup", () => {
    const store = createSessionStore();
    store.getState().loadTranscript("s-1", [{ id: "u", sessionId: "s-1", role: "user", createdAt: "", text: "<b>bold?</b> **no**" }]);
    render(
      <SessionStoreProvider store={store}>
        <Transcript sessionId="s-1" />
      </SessionStoreProvider>,
    );
    expect(screen.getByText("<b>bold?</b> **no**")).toBeInTheDocument();
  });

  it("shows a row that throws while rendering as a failed row and keeps the others", () => {
    const store = createSessionStore();
    const hostile = { id: "bad", sessionId: "s-1", role: "assistant", createdAt: "" } as Message;
    Object.defineProperty(hostile, "text", {
      get() {
        throw new Error("unreadable text");
      },
    });
    store.getState().loadTranscript("s-1", [...messages(2).map((message) => ({ ...message, createdAt: "" })), hostile]);
    const original = console.error;
    console.error = () => undefined;
    try {
      render(
        <SessionStoreProvider store={store}>
          <Transcript sessionId="s-1" />
        </SessionStoreProvider>,
      );
    } finally {
      console.error = original;
    }
    const rows = within(screen.getByRole("region", { name: "Messages" })).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual(["You: message number 0", "Assistant: message number 1Copy message", "This message could not be shown.unreadable textTry again"]);
  });

  it("gives user and assistant text their own direction, isolated from the row around it", async () => {
    const store = createSessionStore();
    store.getState().loadTranscript("s-1", [
      { id: "u", sessionId: "s-1", role: "user", createdAt: "", text: "\u202Eevorppa" },
      { id: "a", sessionId: "s-1", role: "assistant", createdAt: "", text: "שלום\n\n- one\n\n> quoted" },
    ]);
    render(
      <SessionStoreProvider store={store}>
        <Transcript sessionId="s-1" />
      </SessionStoreProvider>,
    );
    expect(screen.getByText("\u202Eevorppa")).toHaveAttribute("dir", "auto");
    expect(await screen.findByText("שלום")).toHaveAttribute("dir", "auto");
    expect(screen.getByText("one")).toHaveAttribute("dir", "auto");
    expect(screen.getByText("quoted").closest("blockquote")).toHaveAttribute("dir", "auto");
  });

  it("dates each user and assistant row relative to now, with the absolute time on hover", () => {
    const store = createSessionStore();
    const createdAt = new Date(Date.now() - 3 * 60_000 - 1000).toISOString();
    store.getState().loadTranscript("s-1", [
      { id: "u", sessionId: "s-1", role: "user", createdAt, text: "hi" },
      { id: "a", sessionId: "s-1", role: "assistant", createdAt, text: "hello" },
    ]);
    render(
      <SessionStoreProvider store={store}>
        <Transcript sessionId="s-1" />
      </SessionStoreProvider>,
    );
    const times = screen.getAllByText("3 minutes ago");
    expect(times.map((time) => [time.tagName, time.getAttribute("datetime")])).toEqual([
      ["TIME", createdAt],
      ["TIME", createdAt],
    ]);
  });
});
