import { afterEach, describe, expect, it } from "vitest";
import { useContext, useState } from "react";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SessionData } from "../../store/state";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { DraftInView } from "../../ui/draft-in-view";
import { ComposerSlot } from "./composer-slot";
import { Composer } from "./composer";
import { defineSlotEntry, type SlotComponentProps } from "./slot-entries";

/** The composer's drafts, as the conversation keeps them; each test starts with none. */
const drafts = new Map<string, string>();
afterEach(() => drafts.clear());

function Banner({ match }: SlotComponentProps<string>) {
  return (
    <section aria-label="takeover">
      <button type="button">{match}</button>
    </section>
  );
}

const byHostId = (prefix: string) => (state: SessionData) => (state.hostId?.startsWith(prefix) ? `${prefix} owns the slot` : null);

function setup() {
  const store = createSessionStore();
  const entries = [
    defineSlotEntry({ key: "low", priority: 1, select: ({ state }) => byHostId("low")(state) ?? byHostId("both")(state), Component: Banner }),
    defineSlotEntry({ key: "high", priority: 5, select: ({ state }) => byHostId("high")(state) ?? (state.hostId === "both" ? "high wins" : null), Component: Banner }),
  ];
  render(
    <SessionStoreProvider store={store}>
      <ComposerSlot entries={entries} sessionId="s-1" drafts={drafts} composer={<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={async () => undefined} />} />
    </SessionStoreProvider>,
  );
  const setHost = (hostId: string | null) => act(() => store.setState({ hostId }));
  return { setHost };
}

describe("ComposerSlot", () => {
  it("renders the normal composer when no entry selects anything", () => {
    setup();
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
    expect(screen.queryByRole("region", { name: "takeover" })).toBeNull();
  });

  it("renders the highest priority entry that selects something", () => {
    const { setHost } = setup();
    setHost("low");
    expect(screen.getByRole("button", { name: "low owns the slot" })).toBeInTheDocument();
    setHost("both");
    expect(screen.getByRole("button", { name: "high wins" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "both owns the slot" })).toBeNull();
  });

  it("hides an empty composer at once as a takeover arrives", async () => {
    const user = userEvent.setup();
    const { setHost } = setup();
    await user.click(screen.getByRole("textbox", { name: "Message" }));
    await user.click(document.body);
    setHost("high");
    expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible();
  });

  it("keeps a composer holding a draft in view beside a takeover until focus turns to it, then hides it without unmounting it", async () => {
    const user = userEvent.setup();
    const { setHost } = setup();
    await user.type(screen.getByRole("textbox", { name: "Message" }), "not finished");
    await user.click(document.body);
    setHost("high");
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
    await user.click(screen.getByRole("textbox", { name: "Message" }));
    await user.click(document.body);
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
    await user.click(screen.getByRole("button", { name: "high owns the slot" }));
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible());
    expect(screen.getByRole("textbox", { name: "Message", hidden: true })).toHaveValue("not finished");
    setHost(null);
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveValue("not finished");
  });

  it("keeps a composer being typed in shown through a takeover until focus leaves it, so no keystroke lands in a hidden field", async () => {
    const user = userEvent.setup();
    const { setHost } = setup();
    await user.type(screen.getByRole("textbox", { name: "Message" }), "I have 3 ");
    setHost("high");
    await user.keyboard("cats");
    const composer = screen.getByRole("textbox", { name: "Message" });
    expect(composer).toBeVisible();
    expect(composer).toHaveFocus();
    expect(composer).toHaveValue("I have 3 cats");
    await user.click(screen.getByRole("button", { name: "high owns the slot" }));
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible());
    expect(screen.getByRole("textbox", { name: "Message", hidden: true })).toHaveValue("I have 3 cats");
  });

  it("renders the entry once while its choice holds: the composer's focus leaving and a parent's render leave it alone", async () => {
    const user = userEvent.setup();
    const renders: string[] = [];
    function Counted({ match }: SlotComponentProps<string>) {
      renders.push(match);
      return <button type="button">{match}</button>;
    }
    const store = createSessionStore();
    const entries = [defineSlotEntry({ key: "counted", priority: 1, select: ({ state }) => (state.hostId === "on" ? "counted entry" : null), Component: Counted })];
    const tree = () => (
      <SessionStoreProvider store={store}>
        <ComposerSlot entries={entries} sessionId="s-1" drafts={drafts} composer={<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={async () => undefined} />} />
      </SessionStoreProvider>
    );
    const { rerender } = render(tree());
    await user.type(screen.getByRole("textbox", { name: "Message" }), "typing");
    act(() => store.setState({ hostId: "on" }));
    expect(renders).toEqual(["counted entry"]);
    await user.click(screen.getByRole("button", { name: "counted entry" }));
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible());
    rerender(tree());
    expect(screen.getByRole("button", { name: "counted entry" })).toHaveFocus();
    expect(renders).toEqual(["counted entry"]);
  });

  it("hides a shown composer only once the press that moved focus away is released, so nothing shifts under the pointer", async () => {
    const user = userEvent.setup();
    const { setHost } = setup();
    await user.type(screen.getByRole("textbox", { name: "Message" }), "typing");
    setHost("high");
    const takeover = screen.getByRole("button", { name: "high owns the slot" });
    await user.pointer({ keys: "[MouseLeft>]", target: takeover });
    expect(takeover).toHaveFocus();
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
    await user.pointer({ keys: "[/MouseLeft]", target: takeover });
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible());
  });

  it("returns focus to the composer when the takeover ends while focus was inside it", async () => {
    const user = userEvent.setup();
    const { setHost } = setup();
    setHost("high");
    await user.click(screen.getByRole("button", { name: "high owns the slot" }));
    setHost(null);
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveFocus();
  });

  it("leaves focus alone when the user had moved it elsewhere", async () => {
    const user = userEvent.setup();
    const { setHost } = setup();
    const outside = document.createElement("input");
    outside.setAttribute("aria-label", "elsewhere");
    document.body.append(outside);
    setHost("high");
    await user.click(outside);
    setHost(null);
    expect(outside).toHaveFocus();
    outside.remove();
  });

  it("shows a failing entry's error with Try again and Dismiss, keeps the composer's draft, and Dismiss ends the takeover", async () => {
    const user = userEvent.setup();
    const store = createSessionStore();
    const dismissed: [string, string][] = [];
    let broken = true;
    function Exploding({ match }: SlotComponentProps<string>): never {
      throw new Error(`cannot draw ${match}`);
    }
    const entries = [
      defineSlotEntry<string>({
        key: "fragile",
        priority: 1,
        select: ({ state }) => (state.hostId === "fragile" ? "constructor" : null),
        Component: (props) => (broken ? <Exploding {...props} /> : <Banner {...props} />),
        dismiss: async (match, sessionId) => {
          dismissed.push([match, sessionId]);
        },
      }),
    ];
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args[0]);
    try {
      render(
        <SessionStoreProvider store={store}>
          <ComposerSlot entries={entries} sessionId="s-1" drafts={drafts} composer={<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={async () => undefined} />} />
        </SessionStoreProvider>,
      );
      await user.type(screen.getByRole("textbox", { name: "Message" }), "kept");
      act(() => store.setState({ hostId: "fragile" }));
      const alert = screen.getByRole("alert");
      expect(alert).toHaveTextContent("The question could not be shown. Dismiss it, or press Stop to end the turn.cannot draw constructor");
      expect(screen.getByRole("textbox", { name: "Message", hidden: true })).toHaveValue("kept");

      await user.click(screen.getByRole("button", { name: "Dismiss" }));
      expect(dismissed).toEqual([["constructor", "s-1"]]);

      broken = false;
      await user.click(screen.getByRole("button", { name: "Try again" }));
      expect(screen.getByRole("button", { name: "constructor" })).toBeInTheDocument();
      expect(screen.queryByRole("alert")).toBeNull();
    } finally {
      console.error = original;
    }
    expect(errors.length).toBeGreaterThan(0);
  });

  it("offers only Try again when the failing entry cannot be dismissed", () => {
    const store = createSessionStore({ hostId: "x" });
    function Exploding(): never {
      throw new Error("broken");
    }
    const entries = [defineSlotEntry<string>({ key: "fragile", priority: 1, select: () => "m", Component: Exploding })];
    const original = console.error;
    console.error = () => undefined;
    try {
      render(
        <SessionStoreProvider store={store}>
          <ComposerSlot entries={entries} sessionId="s-1" drafts={drafts} composer={<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={async () => undefined} />} />
        </SessionStoreProvider>,
      );
    } finally {
      console.error = original;
    }
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Dismiss" })).toBeNull();
  });
});

describe("ComposerSlot and a draft beside a takeover", () => {
  /** A takeover that notes what the slot told it as it first rendered: whether the box shows a draft beside it. */
  const told: (boolean | null)[] = [];
  function Probe({ match }: SlotComponentProps<string>) {
    const draftInView = useContext(DraftInView);
    useState(() => told.push(draftInView));
    return (
      <section aria-label="takeover">
        <p>Asked: {match}</p>
        <button type="button">Answer</button>
      </section>
    );
  }
  afterEach(() => void (told.length = 0));

  /** Two chats, each with its own pending takeover while `pending` holds its id; `sent` is what the composer sent. */
  function twoChats(sessionId: string) {
    const store = createSessionStore();
    const pending = new Set<string>();
    const entries = [defineSlotEntry<string>({ key: "ask", priority: 1, select: ({ sessionId: id, state }) => (state.hostId?.split(",").includes(id) ? id : null), Component: Probe })];
    const sent: string[] = [];
    const slot = (id: string) => (
      <SessionStoreProvider store={store}>
        <ComposerSlot entries={entries} sessionId={id} drafts={drafts} composer={<Composer draftKey={id} drafts={drafts} blockedReason={null} onSend={async (text) => void sent.push(text)} />} />
        <input aria-label="Elsewhere" />
      </SessionStoreProvider>
    );
    const view = render(slot(sessionId));
    const ask = (id: string) => {
      pending.add(id);
      act(() => store.setState({ hostId: [...pending].join(",") }));
    };
    const end = (id: string) => {
      pending.delete(id);
      act(() => store.setState({ hostId: [...pending].join(",") || null }));
    };
    return { ask, end, sent, show: (id: string) => view.rerender(slot(id)) };
  }

  /** Chat `a` with `draft` typed in its box, focus moved to a field elsewhere, then a takeover arriving in it. */
  async function draftThenAsk(draft: string) {
    const user = userEvent.setup();
    const chats = twoChats("a");
    await user.type(screen.getByRole("textbox", { name: "Message" }), draft);
    await user.click(screen.getByRole("textbox", { name: "Elsewhere" }));
    chats.ask("a");
    return { user, chats };
  }

  it("tells a takeover met on switching chats about that chat's draft, not the draft of the chat left", async () => {
    drafts.set("b", "half a thought");
    const chats = twoChats("a");
    chats.ask("b");
    chats.show("b");
    expect(told).toEqual([true]);
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveValue("half a thought");
    chats.ask("a");
    chats.show("a");
    expect(told).toEqual([true, false]);
    expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible();
  });

  it("judges each arrival afresh: a draft turned away from once keeps the next takeover beside it", async () => {
    const { user, chats } = await draftThenAsk("not finished");
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Answer" }));
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible());
    await user.click(screen.getByRole("textbox", { name: "Elsewhere" }));
    chats.end("a");
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
    chats.ask("a");
    expect(told).toEqual([true, true]);
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
  });

  it("steps the box aside after a press in the takeover that moves no focus", async () => {
    const { user } = await draftThenAsk("not finished");
    await user.click(screen.getByText("Asked: a"));
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible());
  });

  it("gives back no draft that stayed in view: no line says it is back, and Enter sends it", async () => {
    const { user, chats } = await draftThenAsk("still here");
    chats.end("a");
    expect(screen.queryByText("Your unsent draft is back.")).toBeNull();
    expect(screen.getByRole("textbox", { name: "Elsewhere" })).toHaveFocus();
    await user.click(screen.getByRole("textbox", { name: "Message" }));
    await user.keyboard("{Enter}");
    await waitFor(() => expect(chats.sent).toEqual(["still here"]));
  });
});
