import { englishFirst } from "../../i18n/locale";

export type AttentionKey =
  | "notifyMe"
  | "notifyUnsupported"
  | "notifyDenied"
  | "notificationTitle"
  | "notificationHidden"
  | "notificationTitlePlan"
  | "moreQuestions";

/** Copy for the title counter's companions: the opt-in and the desktop notification; its Chinese is in `copy-zh.ts`. */
export const attentionCopy = englishFirst<AttentionKey>({
  notifyMe: "Notify me",
  notifyUnsupported: "This browser cannot show desktop notifications.",
  notifyDenied: "Notifications are blocked for this site in the browser's settings.",
  notificationTitle: "A question is waiting for you",
  notificationHidden: "Parley has a question for you",
  notificationTitlePlan: "A plan is awaiting your review",
  moreQuestions: "+{count} more",
});
