// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../protocol/schemas";
import { SLOT_STORIES } from "./stories";
import { lastQuestionOutcome, pressWhenShown, requestsOf } from "./story-run";

describe("lastQuestionOutcome", () => {
  const row = (tool: Message["tool"]): Message => ({ id: "t", sessionId: "s", role: "tool", createdAt: "", tool });
  const call = { callId: "c", name: "ask_user_question", args: {} };

  it("reads how the last question ended from its tool row's status and error code", () => {
    expect(lastQuestionOutcome([])).toBeNull();
    expect(lastQuestionOutcome([row({ ...call, status: "running" })])).toBeNull();
    expect(lastQuestionOutcome([row({ ...call, status: "ok" })])).toBe("answered");
    expect(lastQuestionOutcome([row({ ...call, status: "error", error: { name: "E", code: "ASK_CANCELLED", message: "m" } })])).toBe("cancelled");
    expect(lastQuestionOutcome([row({ ...call, status: "error", error: { name: "E", code: "ASK_ABORTED", message: "m" } })])).toBe("aborted");
  });
});

describe("requestsOf", () => {
  const playground = SLOT_STORIES.find((story) => story.playground)!;

  it("keeps a story's own requests, and gives the playground's pasted batch an rpcId of its own", () => {
    const single = SLOT_STORIES[0]!;
    expect(requestsOf(single, null)).toBe(single.requests);
    const questions = [{ id: "go", question: "Ship it?" }];
    const [request, ...rest] = requestsOf(playground, { kind: "request", parts: { questions } });
    expect(rest).toEqual([]);
    expect(request).toEqual({ ...playground.requests[0], rpcId: expect.stringMatching(/^demo-playground-[0-9a-z]+$/), questions });
    expect(requestsOf(playground, { kind: "request", parts: { questions: [{ id: "go", question: "Ship it now?" }] } })[0]!.rpcId).not.toBe(request!.rpcId);
  });

  it("replaces only the first request with edited parts: who asks and the tool call go with them, the queue behind it stays", () => {
    const queue = SLOT_STORIES.find((story) => story.id === "approval-then-question")!;
    const approval = { server: "files", tool: "delete", arguments: "{}" };
    const [first, second] = requestsOf(queue, { kind: "request", parts: { questions: [{ id: "q", question: "Q?" }], origin: { kind: "mcp-server", name: "files" }, approval } });
    expect(first).toMatchObject({ origin: { kind: "mcp-server", name: "files" }, approval, sessionId: queue.requests[0]!.sessionId });
    expect(second).toBe(queue.requests[1]);
    const [plain] = requestsOf(queue, { kind: "request", parts: { questions: [{ id: "q", question: "Q?" }] } });
    expect(plain).not.toHaveProperty("origin");
    expect(plain).not.toHaveProperty("approval");
  });

  it("asks nothing while the playground's arguments have errors", () => {
    expect(requestsOf(playground, { kind: "errors", errors: [{ path: "", message: "not JSON" }] })).toEqual([]);
  });
});

describe("pressWhenShown", () => {
  afterEach(() => {
    document.body.replaceChildren();
    vi.restoreAllMocks();
  });

  function panelWith(action: string, disabled: boolean): HTMLButtonElement {
    const panel = document.createElement("section");
    panel.setAttribute("data-question-panel", "");
    const button = document.createElement("button");
    button.dataset.action = action;
    button.disabled = disabled;
    panel.append(button);
    return button;
  }

  it("presses the panel part once it appears and is enabled, and only once", async () => {
    const root = document.body.appendChild(document.createElement("div"));
    const clicks: string[] = [];
    pressWhenShown(root, "dismiss");
    const button = panelWith("dismiss", true);
    button.addEventListener("click", () => clicks.push("dismiss"));
    root.append(button.parentElement!);
    await Promise.resolve();
    expect(clicks).toEqual([]);
    button.disabled = false;
    await Promise.resolve();
    button.disabled = true;
    button.disabled = false;
    await Promise.resolve();
    expect(clicks).toEqual(["dismiss"]);
  });

  it("ignores a button of that action outside a question panel", async () => {
    const root = document.body.appendChild(document.createElement("div"));
    const stray = document.createElement("button");
    stray.dataset.action = "primary";
    const clicks: string[] = [];
    stray.addEventListener("click", () => clicks.push("stray"));
    const stop = pressWhenShown(root, "primary");
    root.append(stray);
    await Promise.resolve();
    stop();
    expect(clicks).toEqual([]);
  });
});
