import { englishFirst } from "../i18n/locale";

export type AppKey = "sessionsToggle" | "sessionsWaiting" | "newChatTitle" | "loadFailed" | "sessionMissing" | "deleteFailed" | "chatDeleted" | "undo" | "rateLimited" | "rateLimitedFor" | "skipToMessage";

/** Copy of the app shell; its Chinese is in `copy-zh.ts`. */
export const appCopy = englishFirst<AppKey>({
  sessionsToggle: "Sessions",
  sessionsWaiting: "Sessions, {count} waiting for you",
  newChatTitle: "New chat",
  loadFailed: "Could not load the chats. {reason}",
  sessionMissing: "That chat no longer exists.",
  deleteFailed: "Could not delete the chat; it is back in the list. {reason}",
  chatDeleted: "Deleted “{title}”.",
  undo: "Undo",
  rateLimited: "The host is turning away requests from this address for now: too many came from it. Try again in a moment.",
  rateLimitedFor: "The host is turning away requests from this address for now: too many came from it. Try again in {seconds} s.",
  skipToMessage: "Skip to the message box",
});
