import type { PendingRequest } from "../protocol/schemas";
import type { DraftState } from "../features/question/draft";
import { QUESTION_STORIES } from "./stories/questions";
import { FORM_STORIES } from "./stories/forms";
import { APPROVAL_STORIES } from "./stories/approvals";
import { PLAN_STORIES } from "./stories/plans";
import { AGENT_STORIES } from "./stories/agents";
import { FAULT_STORIES } from "./stories/faults";
import { CHAT_STORIES } from "./stories/chat";
import type { ChatScene } from "./chat-scene";
import type { Locale } from "../i18n/locale";
import type { RetireReason } from "../store/state";

/** How the demo's fake host answers `POST /api/respond`. */
export const REPLIES = ["accept", "not-pending", "bad-response", "network-error", "lost-reply", "slow"] as const;
export type DemoReply = (typeof REPLIES)[number];

/** An interaction the story runner performs once the panel is shown, to reach a state that needs one. */
export type StoryStep = "dismiss" | "submit";

/** Demo copy that belongs to one story: written in every UI language. */
export type Localized = Record<Locale, string>;

/** The groups of stories of the composer slot, in list order. */
export const SLOT_GROUPS = ["questions", "forms", "approvals", "plans", "agents", "faults"] as const;
export type SlotGroup = (typeof SLOT_GROUPS)[number];

/** The story list's groups, in list order: the composer slot's, then the chat around it. */
export const GROUPS = [...SLOT_GROUPS, "chat"] as const;
export type StoryGroup = (typeof GROUPS)[number];

/**
 * One thing that shows once a story reached the state it demonstrates, for the workshop's own tests to wait for: an
 * element of an ARIA role (with its accessible name, or holding a text; `hidden`: found while hidden too, as the chat list
 * in a phone's closed drawer), an entry of the composer's `/` menu, or a text shown anywhere (`start`: a text that begins so).
 */
export type SettledPart =
  | { role: "button" | "heading" | "region" | "status" | "menu" | "combobox"; name?: string; text?: string; hidden?: true }
  | { command: string }
  | { text: string; exact?: true; start?: true };

/** At least one part: a story whose state shows nothing to wait for could be taken before it reached it. */
export type Settled = [SettledPart, ...SettledPart[]];

/** What every story has: an id for `/demo#<id>`, where it is listed and what it shows. */
interface StoryBase {
  id: string;
  title: Localized;
  /** What state it shows: the list entry's second line and the docs pane. */
  description: Localized;
  /** The rules of docs/protocol.md it illustrates, as they are written there: `approval-request` for `[approval-request]`. */
  rules: string[];
}

/** One state of the composer slot a designer can open at `/demo#<id>`. */
export interface SlotStory extends StoryBase {
  /** Where the story is listed. */
  group: SlotGroup;
  scene?: undefined;
  /** The pending requests of one session, oldest first; the slot shows the first. */
  requests: PendingRequest[];
  /** The fake host's receipt when the story opens; the reply control can change it. */
  reply: DemoReply;
  /** Drafts seeded for the first request before the panel mounts, as a reload would restore them. */
  initialDraft?: DraftState;
  /** Performed on the first request after it mounts. */
  then?: StoryStep;
  /** Typed into the approval card's reason field once the card shows. */
  reason?: string;
  /** `while-typing`: the preview's message box has focus and text when the batch arrives. */
  arrival?: "while-typing";
  /** Shows the notice left when the first request went away for this reason, with the seeded drafts. */
  retired?: RetireReason;
  /** The playground: the first request is built from what is pasted on the page. */
  playground?: true;
  /** What shows once it reached its state, every part of it; without it, the first request's panel or card (its question, or its tool call). */
  settled?: Settled;
}

/** One state of the chat around the slot (first screen, `/` menu, sidebar, drawer, an ACP agent's rows), opened at `/demo#<id>`. */
export interface ChatStory extends StoryBase {
  group: "chat";
  /** The chats the fake host holds and what the screen shows of them. */
  scene: ChatScene;
  /** What shows once its screen is in, every part of it. */
  settled: Settled;
}

export type Story = SlotStory | ChatStory;

export { DEMO_SESSION_ID } from "./stories/build";

/** The stories of the composer slot, in list order; each group's stories are in its file under stories/. */
export const SLOT_STORIES: SlotStory[] = [
  ...QUESTION_STORIES,
  ...FORM_STORIES,
  ...APPROVAL_STORIES,
  ...PLAN_STORIES,
  ...AGENT_STORIES,
  ...FAULT_STORIES,
];

/** Every story of the demo page, in list order. */
export const STORIES: Story[] = [...SLOT_STORIES, ...CHAT_STORIES];

/** The story id a location hash names; null when it cannot be decoded (`#%`). */
export function decodeHash(hash: string): string | null {
  try {
    return decodeURIComponent(hash.replace(/^#/, ""));
  } catch {
    return null;
  }
}

/** The story with this id; null for an id no story has. */
export function storyById(id: string | null): Story | null {
  return STORIES.find((story) => story.id === id) ?? null;
}

/** The story a hash like `#plan-review` names, else the first; a hash that cannot be decoded names none. */
export function storyFromHash(hash: string): Story {
  return storyById(decodeHash(hash)) ?? STORIES[0]!;
}
