import { LOCALES, type Locale } from "../i18n/locale";
import type { RespondRequest } from "../protocol/schemas";
import type { FakeOutcome } from "./fake-respond";
import { isThemeChoice, type ThemeChoice } from "../ui/theme";
import { isPlaygroundInput, type PlaygroundInput } from "./playground";
import { decodeHash, REPLIES, type DemoReply } from "./stories";

/** What the preview frame needs from the page's controls. `reply: null` keeps the story's own reply. */
export interface FrameSettings {
  storyId: string;
  locale: Locale;
  theme: ThemeChoice;
  reply: DemoReply | null;
  /** The preview is a phone: hide what a phone hides (number-key hints). */
  phone?: boolean;
  /** The playground's pasted input, read as `input` says (absent: `ask_user_question` arguments). */
  args?: string;
  input?: PlaygroundInput;
  /** The story's arguments as edited in Controls, as JSON. */
  edit?: string;
}

/** How one response ended, as the log shows it: still in flight, or what the fake host did with it. */
export type SendResult = { kind: "pending" } | FakeOutcome;

/** What a designer can make the fake host do: the agent asks the story's questions again, another tab answers, the host restarts. */
export const HOST_ACTIONS = ["ask", "answer-elsewhere", "restart"] as const;
export type HostAction = (typeof HOST_ACTIONS)[number];

const SOURCE = "parley-demo";

/** Page → frame. */
export type ShellMessage =
  | { source: typeof SOURCE; type: "settings"; settings: FrameSettings }
  | { source: typeof SOURCE; type: "host"; action: HostAction };

/** Frame → page. */
export type FrameMessage =
  | { source: typeof SOURCE; type: "ready" }
  | { source: typeof SOURCE; type: "sent"; id: string; storyId: string; body: RespondRequest }
  | { source: typeof SOURCE; type: "settled"; id: string; result: SendResult };

type Unsourced<T> = T extends unknown ? Omit<T, "source"> : never;

export function postToFrame(target: Window, message: Unsourced<ShellMessage>): void {
  target.postMessage({ source: SOURCE, ...message }, window.location.origin);
}

export function postToShell(message: Unsourced<FrameMessage>): void {
  if (window.parent === window) return;
  window.parent.postMessage({ source: SOURCE, ...message }, window.location.origin);
}

function isOwn(event: MessageEvent): boolean {
  const data: unknown = event.data;
  return event.origin === window.location.origin && typeof data === "object" && data !== null && (data as { source?: unknown }).source === SOURCE;
}

export function readShellMessage(event: MessageEvent): ShellMessage | null {
  return isOwn(event) ? (event.data as ShellMessage) : null;
}

export function readFrameMessage(event: MessageEvent): FrameMessage | null {
  return isOwn(event) ? (event.data as FrameMessage) : null;
}

/** The frame's starting settings from its own address: `?frame&locale=zh-CN&theme=dark&reply=slow#story`. */
export function settingsFromLocation(location: Pick<Location, "search" | "hash">): FrameSettings {
  const params = new URLSearchParams(location.search);
  const locale = params.get("locale");
  const theme = params.get("theme");
  const reply = params.get("reply");
  const args = params.get("args");
  const input = params.get("input");
  const edit = params.get("edit");
  return {
    storyId: decodeHash(location.hash) ?? "",
    locale: (LOCALES as readonly string[]).includes(locale ?? "") ? (locale as Locale) : "en",
    theme: isThemeChoice(theme) ? theme : "system",
    reply: (REPLIES as readonly string[]).includes(reply ?? "") ? (reply as DemoReply) : null,
    ...(params.get("phone") === "1" ? { phone: true } : {}),
    ...(args !== null ? { args } : {}),
    ...(isPlaygroundInput(input) ? { input } : {}),
    ...(edit !== null ? { edit } : {}),
  };
}

/** The address of the preview frame for some settings. */
export function frameUrl(settings: FrameSettings): string {
  const params = new URLSearchParams({ frame: "", locale: settings.locale, theme: settings.theme });
  if (settings.reply) params.set("reply", settings.reply);
  if (settings.phone) params.set("phone", "1");
  if (settings.input !== undefined) params.set("input", settings.input);
  if (settings.args !== undefined) params.set("args", settings.args);
  if (settings.edit !== undefined) params.set("edit", settings.edit);
  return `/demo?${params.toString()}#${encodeURIComponent(settings.storyId)}`;
}
