import type { AttentionKey } from "./copy";

/** The Chinese of the title counter's companions (`attentionCopy`), which `src/app/zh-CN.ts` fills in when the locale loads. */
export const attentionCopyZh: Record<AttentionKey, string> = {
  notifyMe: "通知我",
  notifyUnsupported: "此浏览器无法显示桌面通知。",
  notifyDenied: "浏览器设置已阻止此网站的通知。",
  notificationTitle: "有一个问题在等你回答",
  notificationHidden: "Parley 有一个问题要问你",
  notificationTitlePlan: "有一份计划等待你审阅",
  moreQuestions: "另有 {count} 个问题",
};
