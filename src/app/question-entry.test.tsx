import { beforeAll, describe, expect, it } from "vitest";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PendingRequest, Receipt, RespondRequest } from "../protocol/schemas";
import { conversationView, storeWithSessions } from "../features/chat/conversation-testing";
import { createQuestionEntry, loadQuestionPanel } from "./question-entry";

function request(rpcId: string, question: string): PendingRequest {
  return {
    rpcId,
    sessionId: "s-1",
    questions: [{ id: "go", question, options: [{ label: "Yes" }, { label: "No" }] }],
    createdAt: "2026-11-30T10:00:00.000Z",
  };
}

function setup() {
  const store = storeWithSessions(["s-1", "Chat", "idle"]);
  const posted: RespondRequest[] = [];
  const respond = async (body: RespondRequest): Promise<Receipt> => {
    posted.push(body);
    return { accepted: true };
  };
  render(conversationView(store, { slotEntries: [createQuestionEntry(respond)], focusReady: false }));
  return { store, posted };
}

beforeAll(async () => {
  await loadQuestionPanel();
});

describe("the question entry in the composer slot", () => {
  it("takes over the composer, keeps it mounted with its draft, stays after a successful POST and gives it back with focus on question/resolved", async () => {
    const user = userEvent.setup();
    const { store, posted } = setup();
    await user.type(screen.getByRole("textbox", { name: "Message" }), "half-typed note");
    act(() => screen.getByRole("textbox", { name: "Message" }).blur());

    act(() => store.getState().applyFrame({ type: "question/requested", ...request("r1", "Ship it?") }));
    expect(await screen.findByRole("region", { name: "Ship it?" })).toBeInTheDocument();
    // The draft keeps the panel passive and the composer in view until the user turns to the panel.
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveValue("half-typed note");

    // A pick on a lone single-select answers it.
    await user.click(screen.getByRole("radio", { name: "Yes" }));
    expect(screen.queryByRole("textbox", { name: "Message" })).toBeNull();
    expect(screen.getByRole("textbox", { name: "Message", hidden: true })).toHaveValue("half-typed note");
    expect(posted).toEqual([{ type: "answer", rpcId: "r1", sessionId: "s-1", answers: [{ id: "go", selected: ["Yes"] }] }]);
    expect(screen.getByRole("region", { name: "Ship it?" })).toBeInTheDocument();
    expect(store.getState().pending["s-1"]).toHaveLength(1);

    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "answered" }));
    expect(screen.queryByRole("region", { name: "Ship it?" })).toBeNull();
    const composer = screen.getByRole("textbox", { name: "Message" });
    expect(composer).toHaveValue("half-typed note");
    expect(composer).toHaveFocus();
  });

  it("shows the first of two pending requests as Request 1 of 2, then the second after the first resolves", async () => {
    const { store } = setup();
    act(() => {
      store.getState().applyFrame({ type: "question/requested", ...request("r1", "First?") });
      store.getState().applyFrame({ type: "question/requested", ...request("r2", "Second?") });
    });
    expect(await screen.findByRole("region", { name: "First?" })).toBeInTheDocument();
    expect(screen.getByText("Request 1 of 2")).toBeInTheDocument();

    act(() => store.getState().applyFrame({ type: "question/resolved", rpcId: "r1", sessionId: "s-1", outcome: "cancelled" }));
    expect(screen.getByRole("region", { name: "Second?" })).toBeInTheDocument();
    expect(screen.queryByText(/Request \d of \d/)).toBeNull();
    expect(screen.queryByRole("textbox", { name: "Message" })).toBeNull();
  });

  it("keeps the panel through a reconnect that replays the request, and drops it when the replay leaves it out", async () => {
    const { store } = setup();
    act(() => {
      store.getState().applyFrame({ type: "hello", protocol: 2, hostId: "h" });
      store.getState().applyFrame({ type: "question/requested", ...request("r1", "Still there?") });
      store.getState().applyFrame({ type: "synced" });
    });
    act(() => {
      store.getState().applyFrame({ type: "hello", protocol: 2, hostId: "h" });
      store.getState().applyFrame({ type: "question/requested", ...request("r1", "Still there?") });
      store.getState().applyFrame({ type: "synced" });
    });
    expect(await screen.findByRole("region", { name: "Still there?" })).toBeInTheDocument();
    act(() => {
      store.getState().applyFrame({ type: "hello", protocol: 2, hostId: "h" });
      store.getState().applyFrame({ type: "synced" });
    });
    expect(screen.queryByRole("region", { name: "Still there?" })).toBeNull();
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
  });
});
