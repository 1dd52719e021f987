import type { AppKey } from "./copy";

/** The Chinese of the app shell (`appCopy`), which `src/app/zh-CN.ts` fills in when the locale loads. */
export const appCopyZh: Record<AppKey, string> = {
  sessionsToggle: "会话",
  sessionsWaiting: "会话，{count} 个等待你回答",
  newChatTitle: "新对话",
  loadFailed: "无法加载对话。{reason}",
  sessionMissing: "该对话已不存在。",
  deleteFailed: "无法删除该对话，已放回列表。{reason}",
  chatDeleted: "已删除“{title}”。",
  undo: "撤销",
  rateLimited: "来自此地址的请求过多，主机暂时拒绝处理。请稍后再试。",
  rateLimitedFor: "来自此地址的请求过多，主机暂时拒绝处理。请在 {seconds} 秒后再试。",
  skipToMessage: "跳到消息输入框",
};
