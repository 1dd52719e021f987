import type { Catalog } from "../../i18n/locale";

export type SessionsKey =
  | "navLabel"
  | "newChat"
  | "waitingBadge"
  | "planBadge"
  | "untitled"
  | "noSessions"
  | "listFailed"
  | "language"
  | "languageEnglish"
  | "languageChinese"
  | "showMore"
  | "agentBadge"
  | "titleLabel"
  | "rename"
  | "delete"
  | "renameChat"
  | "deleteChat"
  | "searchLabel"
  | "searchPlaceholder"
  | "noMatches"
  | "searching"
  | "searchFailed"
  | "chatActions"
  | "groupWaiting"
  | "groupToday"
  | "groupYesterday"
  | "groupEarlier"
  | "closeList";

/** Copy of the sessions sidebar. */
export const sessionsCopy: Catalog<SessionsKey> = {
  en: {
    navLabel: "Chats",
    newChat: "New chat",
    waitingBadge: "Waiting for answer",
    planBadge: "Plan awaiting review",
    untitled: "Untitled chat",
    noSessions: "No chats yet.",
    listFailed: "The chats could not be loaded.",
    language: "Language",
    languageEnglish: "English",
    languageChinese: "简体中文",
    showMore: "Show more chats",
    agentBadge: "MCP agent",
    titleLabel: "Chat title",
    rename: "Rename",
    delete: "Delete",
    renameChat: "Rename “{title}”",
    deleteChat: "Delete “{title}”",
    searchLabel: "Search chats",
    searchPlaceholder: "Search titles and messages",
    noMatches: "No chat matches “{query}”.",
    searching: "Searching…",
    searchFailed: "Search failed. {reason}",
    chatActions: "Actions for “{title}”",
    groupWaiting: "Waiting for you",
    groupToday: "Today",
    groupYesterday: "Yesterday",
    groupEarlier: "Earlier",
    closeList: "Close the chat list",
  },
  "zh-CN": {
    navLabel: "对话",
    newChat: "新对话",
    waitingBadge: "等待回答",
    planBadge: "计划待审阅",
    untitled: "未命名对话",
    noSessions: "还没有对话。",
    listFailed: "无法加载对话列表。",
    language: "语言",
    languageEnglish: "English",
    languageChinese: "简体中文",
    showMore: "显示更多对话",
    agentBadge: "MCP 智能体",
    titleLabel: "对话标题",
    rename: "重命名",
    delete: "删除",
    renameChat: "重命名“{title}”",
    deleteChat: "删除“{title}”",
    searchLabel: "搜索对话",
    searchPlaceholder: "搜索标题和消息",
    noMatches: "没有与“{query}”匹配的对话。",
    searching: "正在搜索…",
    searchFailed: "搜索失败。{reason}",
    chatActions: "“{title}”的操作",
    groupWaiting: "等你回答",
    groupToday: "今天",
    groupYesterday: "昨天",
    groupEarlier: "更早",
    closeList: "关闭对话列表",
  },
};
