import type { Catalog } from "../../i18n/locale";

export type SessionsKey =
  | "navLabel"
  | "newChat"
  | "waitingBadge"
  | "planBadge"
  | "untitled"
  | "noSessions"
  | "language"
  | "languageEnglish"
  | "languageChinese"
  | "showMore"
  | "agentBadge";

/** Copy of the sessions sidebar. */
export const sessionsMessages: Catalog<SessionsKey> = {
  en: {
    navLabel: "Chats",
    newChat: "New chat",
    waitingBadge: "Waiting for answer",
    planBadge: "Plan awaiting review",
    untitled: "Untitled chat",
    noSessions: "No chats yet.",
    language: "Language",
    languageEnglish: "English",
    languageChinese: "简体中文",
    showMore: "Show more chats",
    agentBadge: "MCP agent",
  },
  "zh-CN": {
    navLabel: "对话",
    newChat: "新对话",
    waitingBadge: "等待回答",
    planBadge: "计划待审阅",
    untitled: "未命名对话",
    noSessions: "还没有对话。",
    language: "语言",
    languageEnglish: "English",
    languageChinese: "简体中文",
    showMore: "显示更多对话",
    agentBadge: "MCP 智能体",
  },
};
