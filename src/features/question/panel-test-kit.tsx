import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, expect, vi, type Mock } from "vitest";
import type { AnswerItem, PendingRequest, Receipt, RespondRequest } from "../../protocol/schemas";
import { QuestionPanel } from "./question-panel";

/** The session every panel test's request belongs to. */
export const SESSION_ID = "session-1";

export type RespondMock = Mock<(body: RespondRequest) => Promise<Receipt>>;

/** A respond function whose every call the host accepts. */
export function acceptingRespond(): RespondMock {
  return vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
}

/** The body the panel posts for an answer to request `rpcId`. */
export function answerBody(answers: AnswerItem[], rpcId = "rpc-1"): RespondRequest {
  return { type: "answer", rpcId, sessionId: SESSION_ID, answers };
}

/** Asserts the panel responded exactly once, with exactly these answers to rpc-1. */
export function expectAnswered(respond: RespondMock, answers: AnswerItem[]): void {
  expect(respond.mock.calls).toEqual([[answerBody(answers)]]);
}

/** Renders a panel that takes no focus of its own, as the only pending request unless `count` says otherwise. */
export function renderPanel(request: PendingRequest, respond: RespondMock = acceptingRespond(), count = 1) {
  const view = render(<QuestionPanel request={request} position={{ index: 0, count }} respond={respond} autoFocus={false} />);
  return { respond, view, user: userEvent.setup() };
}

/**
 * Does what Chromium does and jsdom does not: a focused control that becomes disabled drops focus to the body.
 * Returns the stop.
 */
export function dropFocusFromDisabled(): () => void {
  const observer = new MutationObserver(() => {
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.matches(":disabled")) active.blur();
  });
  observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["disabled"] });
  return () => observer.disconnect();
}

/** The review step's rows as text: the list items that carry a Change button. */
export function reviewItems(): (string | null)[] {
  return screen
    .getAllByRole("listitem")
    .filter((item) => within(item).queryByRole("button", { name: /^Change question/ }) !== null)
    .map((item) => item.textContent);
}

/** The current step's heading text. */
export function heading(): string | null {
  return screen.getByRole("heading", { level: 2 }).textContent;
}

/**
 * Installs a `performance.now` for each test that ticks 1 s per read, so no step guard (300 ms) is
 * still armed when the next action comes; `set` stops it at a time the test chooses.
 */
export function installTestClock(): { set: (ms: number) => void } {
  let now = 0;
  let ticking = true;
  beforeEach(() => {
    now = 0;
    ticking = true;
    vi.spyOn(performance, "now").mockImplementation(() => (ticking ? (now += 1000) : now));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return {
    set(ms) {
      ticking = false;
      now = ms;
    },
  };
}
