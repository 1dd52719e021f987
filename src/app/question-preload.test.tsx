import { describe, expect, it } from "vitest";
import { act, render, screen } from "@testing-library/react";
import { conversationView, storeWithSessions } from "../features/chat/conversation-testing";
import { createQuestionEntry, loadQuestionPanel } from "./question-entry";

// A file of its own: the panel must not have rendered before in this module graph, as on a page just opened.
describe("the first question after the panel's code was preloaded", () => {
  it("shows in the render its frame causes, without a fallback in between", async () => {
    await loadQuestionPanel();
    const store = storeWithSessions(["s-1", "Chat", "idle"]);
    render(conversationView(store, { slotEntries: [createQuestionEntry(async () => ({ accepted: true }))], focusReady: false }));
    act(() =>
      store.getState().applyFrame({
        type: "question/requested",
        rpcId: "r1",
        sessionId: "s-1",
        questions: [{ id: "go", question: "Ship it?", options: [{ label: "Yes" }, { label: "No" }] }],
        createdAt: "2026-11-30T10:00:00.000Z",
      }),
    );
    expect(screen.getByRole("region", { name: "Ship it?" })).toBeInTheDocument();
    expect(screen.getAllByRole("radio").map((radio) => radio.getAttribute("aria-checked"))).toEqual(["false", "false"]);
    expect(screen.getByRole("radio", { name: "Yes" })).toBeInTheDocument();
  });
});
