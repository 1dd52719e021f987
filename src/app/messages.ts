import type { Catalog } from "../i18n/locale";

export type AppKey = "sessionsToggle" | "appName" | "newChatTitle" | "loadFailed" | "sessionMissing" | "loadingDemo";

/** Copy of the app shell. */
export const appMessages: Catalog<AppKey> = {
  en: {
    sessionsToggle: "Sessions",
    appName: "Parley",
    newChatTitle: "New chat",
    loadFailed: "Could not load from the host: {reason}",
    sessionMissing: "That chat no longer exists.",
    loadingDemo: "Loading the demo page…",
  },
  "zh-CN": {
    sessionsToggle: "会话",
    appName: "Parley",
    newChatTitle: "新对话",
    loadFailed: "无法从主机加载：{reason}",
    sessionMissing: "该对话已不存在。",
    loadingDemo: "正在加载演示页面…",
  },
};
