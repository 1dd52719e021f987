import type { Catalog } from "../i18n/locale";

export type AppKey = "sessionsToggle" | "newChatTitle" | "loadFailed" | "sessionMissing";

/** Copy of the app shell. */
export const appMessages: Catalog<AppKey> = {
  en: {
    sessionsToggle: "Sessions",
    newChatTitle: "New chat",
    loadFailed: "Could not load the chats. {reason}",
    sessionMissing: "That chat no longer exists.",
  },
  "zh-CN": {
    sessionsToggle: "会话",
    newChatTitle: "新对话",
    loadFailed: "无法加载对话。{reason}",
    sessionMissing: "该对话已不存在。",
  },
};
