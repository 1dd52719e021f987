import type { Catalog } from "../i18n/locale";

export type AppKey = "sessionsToggle" | "newChatTitle" | "loadFailed" | "sessionMissing" | "deleteFailed" | "chatDeleted" | "undo" | "rateLimited" | "rateLimitedFor" | "skipToMessage";

/** Copy of the app shell. */
export const appCopy: Catalog<AppKey> = {
  en: {
    sessionsToggle: "Sessions",
    newChatTitle: "New chat",
    loadFailed: "Could not load the chats. {reason}",
    sessionMissing: "That chat no longer exists.",
    deleteFailed: "Could not delete the chat; it is back in the list. {reason}",
    chatDeleted: "Deleted “{title}”.",
    undo: "Undo",
    rateLimited: "The host is turning away requests from this address for now: too many came from it. Try again in a moment.",
    rateLimitedFor: "The host is turning away requests from this address for now: too many came from it. Try again in {seconds} s.",
    skipToMessage: "Skip to the message box",
  },
  "zh-CN": {
    sessionsToggle: "会话",
    newChatTitle: "新对话",
    loadFailed: "无法加载对话。{reason}",
    sessionMissing: "该对话已不存在。",
    deleteFailed: "无法删除该对话，已放回列表。{reason}",
    chatDeleted: "已删除“{title}”。",
    undo: "撤销",
    rateLimited: "来自此地址的请求过多，主机暂时拒绝处理。请稍后再试。",
    rateLimitedFor: "来自此地址的请求过多，主机暂时拒绝处理。请在 {seconds} 秒后再试。",
    skipToMessage: "跳到消息输入框",
  },
};
