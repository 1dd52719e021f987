import { englishFirst } from "../../i18n/locale";

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

/** Copy of the sessions sidebar; its Chinese is in `copy-zh.ts`. */
export const sessionsCopy = englishFirst<SessionsKey>({
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
});
