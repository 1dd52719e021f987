import type { Catalog } from "../../i18n/locale";

type AttentionKey =
  | "notifyMe"
  | "notifyUnsupported"
  | "notifyDenied"
  | "notificationTitle"
  | "notificationTitlePlan"
  | "moreQuestions";

/** Copy for the title counter's companions: the opt-in and the desktop notification. */
export const attentionCopy: Catalog<AttentionKey> = {
  en: {
    notifyMe: "Notify me",
    notifyUnsupported: "This browser cannot show desktop notifications.",
    notifyDenied: "Notifications are blocked for this site in the browser's settings.",
    notificationTitle: "A question is waiting for you",
    notificationTitlePlan: "A plan is awaiting your review",
    moreQuestions: "+{count} more",
  },
  "zh-CN": {
    notifyMe: "通知我",
    notifyUnsupported: "此浏览器无法显示桌面通知。",
    notifyDenied: "浏览器设置已阻止此网站的通知。",
    notificationTitle: "有一个问题在等你回答",
    notificationTitlePlan: "有一份计划等待你审阅",
    moreQuestions: "另有 {count} 个问题",
  },
};
