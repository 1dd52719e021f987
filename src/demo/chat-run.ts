import { createSessionEngine, type SessionEngine } from "../client/session-engine";
import { NEW_CHAT_DRAFT } from "../features/chat/composer";
import { deleteDraft } from "../features/question/draft-storage";
import { retireDraft, settleResponse } from "../features/question/retired-drafts";
import type { PendingRequest } from "../protocol/schemas";
import { createSessionStore, type SessionStore } from "../store/session-store";
import { sceneState } from "./chat-scene";
import { createFakeHost, type FakeHost } from "./fake-host";
import { postToShell, type FrameSettings } from "./frame-messages";
import type { ChatStory } from "./stories";

/** One run of a chat story: its own fake host holding the scene, store, engine and composer drafts, as a freshly opened tab would have. */
export interface ChatRun {
  host: FakeHost;
  store: SessionStore;
  engine: SessionEngine;
  drafts: Map<string, string>;
  /** The questions the scene's chats wait on, asked on the fake host before the tab connects. */
  requests: readonly PendingRequest[];
}

export function createChatRun(story: ChatStory, settings: { current: FrameSettings }, now: Date): ChatRun {
  const { scene } = story;
  const { sessions, messages, requests } = sceneState(scene, now);
  requests.forEach((request) => deleteDraft(request.rpcId));
  const store = createSessionStore();
  const host = createFakeHost({
    sessions,
    messages,
    health: scene.health,
    reply: () => settings.current.reply ?? "accept",
    observer: {
      sent: (id, body) => postToShell({ type: "sent", id, storyId: story.id, body }),
      settled: (id, result) => postToShell({ type: "settled", id, result }),
    },
  });
  // Asked before the tab connects: the greeting replays them, as a reload finds questions already waiting.
  for (const request of requests) host.ask(request);
  const drafts = new Map<string, string>(scene.draft === undefined ? [] : [[scene.open ?? NEW_CHAT_DRAFT, scene.draft]]);
  const engine = createSessionEngine({ store, api: host.api, connect: host.connect, url: "demo:", drafts, newChatDraftKey: NEW_CHAT_DRAFT, retireDraft, settleResponse });
  return { host, store, engine, drafts, requests };
}

/** How long the "…" step waits for the chat's row before it gives up. */
const STEP_TIMEOUT_MS = 5000;

/** Opens the "…" menu of a chat's row once the list shows it: the row is found by its link's address, the button by its popup role. */
export function openRowMenuWhenShown(root: HTMLElement, href: string): () => void {
  const press = () => {
    const link = [...root.querySelectorAll<HTMLAnchorElement>("a[href]")].find((candidate) => candidate.getAttribute("href") === href);
    const button = link?.closest("li")?.querySelector<HTMLButtonElement>('button[aria-haspopup="menu"]');
    if (!button) return false;
    if (button.getAttribute("aria-expanded") !== "true") button.click();
    return true;
  };
  const observer = new MutationObserver(() => {
    if (press()) stop();
  });
  const giveUp = setTimeout(() => {
    console.warn(`demo step "row menu" found no row ${href} within ${STEP_TIMEOUT_MS} ms`);
    stop();
  }, STEP_TIMEOUT_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(giveUp);
  }
  observer.observe(root, { childList: true, subtree: true });
  if (press()) stop();
  return stop;
}
