import { describe, expect, it } from "vitest";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SessionData } from "../../store/state";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import { ComposerSlot } from "./composer-slot";
import { Composer } from "./composer";
import { defineSlotEntry, type SlotComponentProps } from "./slot-entries";

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
      <ComposerSlot entries={entries} sessionId="s-1" composer={<Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={async () => undefined} />} />
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
        <ComposerSlot entries={entries} sessionId="s-1" composer={<Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={async () => undefined} />} />
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
          <ComposerSlot entries={entries} sessionId="s-1" composer={<Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={async () => undefined} />} />
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
          <ComposerSlot entries={entries} sessionId="s-1" composer={<Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={async () => undefined} />} />
        </SessionStoreProvider>,
      );
    } finally {
      console.error = original;
    }
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Dismiss" })).toBeNull();
  });
});
