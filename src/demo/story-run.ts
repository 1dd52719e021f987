import { createSessionEngine, type SessionEngine } from "../client/session-engine";
import { deleteDraft, saveDraft } from "../features/question/draft-storage";
import { retireDraft, settleResponse } from "../features/question/retired-drafts";
import type { Message, PendingRequest, Session } from "../protocol/schemas";
import { createSessionStore, type SessionStore } from "../store/session-store";
import { createFakeHost, type FakeHost } from "./fake-host";
import { postToShell, type FrameSettings } from "./frame-messages";
import type { PlaygroundResult } from "./playground";
import { DEMO_SESSION_ID, type SlotStory } from "./stories";

/** How long the preview's composer is typed in before the batch of an `arrives-while-typing` story arrives. */
const ARRIVAL_DELAY_MS = 600;
/** How long a story step waits for the part of the panel it presses before it gives up. */
const STEP_TIMEOUT_MS = 5000;

const DEMO_SESSION: Session = { id: DEMO_SESSION_ID, title: "Demo", createdAt: "2026-01-15T09:30:00.000Z", updatedAt: "2026-01-15T09:30:00.000Z", state: "idle" };

/**
 * The story's requests with the first one made of pasted or edited parts, under an rpcId of its own
 * so drafts of another version do not apply; none while the parts have errors.
 */
export function requestsOf(story: SlotStory, override: PlaygroundResult | null): PendingRequest[] {
  if (override === null) return story.requests;
  const [first, ...rest] = story.requests;
  if (!first || override.kind === "errors") return [];
  const { questions, origin, approval } = override.parts;
  const rpcId = `${first.rpcId}-${hashOf(JSON.stringify(override.parts))}`;
  return [{ rpcId, sessionId: first.sessionId, createdAt: first.createdAt, questions, ...(origin ? { origin } : {}), ...(approval ? { approval } : {}) }, ...rest];
}

function hashOf(text: string): string {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = (hash * 31 + text.charCodeAt(index)) | 0;
  return (hash >>> 0).toString(36);
}

/** One run of a story: its own fake host, store and engine, as a freshly opened tab would have. */
export interface Run {
  host: FakeHost;
  store: SessionStore;
  engine: SessionEngine;
  drafts: Map<string, string>;
}

export function createRun(story: SlotStory, requests: readonly PendingRequest[], settings: { current: FrameSettings }, typingText: string): Run {
  requests.forEach((request) => deleteDraft(request.rpcId));
  const first = requests[0];
  if (first && story.initialDraft) saveDraft(first.rpcId, story.initialDraft);
  const store = createSessionStore();
  const host = createFakeHost({
    sessions: [DEMO_SESSION],
    reply: () => settings.current.reply ?? story.reply,
    observer: {
      sent: (id, body) => postToShell({ type: "sent", id, storyId: story.id, body }),
      settled: (id, result) => postToShell({ type: "settled", id, result }),
    },
  });
  const drafts = new Map<string, string>(story.arrival === "while-typing" ? [[DEMO_SESSION_ID, typingText]] : []);
  const engine = createSessionEngine({ store, api: host.api, connect: host.connect, url: "demo:", drafts, newChatDraftKey: "", retireDraft, settleResponse });
  return { host, store, engine, drafts };
}

/** Plays the story on the fake host: the agent asks, then whatever else the story needs happens on the host. */
export function playStory(story: SlotStory, requests: readonly PendingRequest[], host: FakeHost): () => void {
  const timer = setTimeout(
    () => {
      for (const request of requests) host.ask(request);
      const first = requests[0];
      if (!first) return;
      switch (story.retired) {
        case "answered-elsewhere":
          return host.resolveElsewhere(first.rpcId, "answered");
        case "answered-unconfirmed":
          // The story's submit does it: the host takes the answer and its reply is lost (`lost-reply`).
          return;
        case "dismissed-elsewhere":
          return host.resolveElsewhere(first.rpcId, "cancelled");
        case "stopped":
          return host.resolveElsewhere(first.rpcId, "aborted");
        case "resolved-away":
          return host.resolveWhileAway(first.rpcId);
        case "host-restarted":
          return host.restart();
        case "host-lost":
          return host.loseHolder(first.rpcId);
        case undefined:
          return;
        default:
          return story.retired satisfies never;
      }
    },
    story.arrival === "while-typing" ? ARRIVAL_DELAY_MS : 0,
  );
  return () => clearTimeout(timer);
}

/** Presses the panel part a story step names once it is shown: found by its data attribute, never by its text. */
export function pressWhenShown(root: HTMLElement, action: "primary" | "dismiss"): () => void {
  const selector = `[data-question-panel] [data-action="${action}"]`;
  const press = () => {
    const button = root.querySelector<HTMLButtonElement>(selector);
    if (!button || button.disabled) return false;
    button.click();
    return true;
  };
  let done = false;
  const observer = new MutationObserver(() => {
    if (!done && press()) stop();
  });
  const giveUp = setTimeout(() => {
    console.warn(`demo step "${action}" found nothing to press within ${STEP_TIMEOUT_MS} ms`);
    stop();
  }, STEP_TIMEOUT_MS);
  function stop() {
    done = true;
    observer.disconnect();
    clearTimeout(giveUp);
  }
  observer.observe(root, { childList: true, subtree: true, attributes: true });
  if (press()) stop();
  return stop;
}

/** Chooses Deny on the approval card once it shows and types `text` into its reason field, as a person would (a click, then an input event React hears). */
export function typeReasonWhenShown(root: HTMLElement, text: string): () => void {
  const fill = () => {
    const field = root.querySelector<HTMLTextAreaElement>("[data-approval-card] textarea");
    if (!field) {
      root.querySelector<HTMLButtonElement>('[data-approval-card] [data-action="deny"]')?.click();
      return false;
    }
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(field, text);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    return true;
  };
  const observer = new MutationObserver(() => {
    if (fill()) observer.disconnect();
  });
  observer.observe(root, { childList: true, subtree: true });
  if (fill()) observer.disconnect();
  return () => observer.disconnect();
}

/** How the last question the agent asked ended, read from its tool row as data; null while one waits or none was asked. */
export function lastQuestionOutcome(transcript: readonly Message[]): "answered" | "cancelled" | "aborted" | null {
  const row = transcript.findLast((message) => message.tool !== undefined);
  if (!row?.tool || row.tool.status === "running") return null;
  if (row.tool.status === "ok") return "answered";
  return row.tool.error?.code === "ASK_CANCELLED" ? "cancelled" : "aborted";
}

