import type { Catalog } from "../../i18n/locale";

type PushKey =
  | "settingsToggle"
  | "settingsLabel"
  | "turnOn"
  | "turnOff"
  | "hideText"
  | "devicesHeading"
  | "noDevices"
  | "thisDevice"
  | "aDevice"
  | "remove"
  | "blocked"
  | "hostAnswered"
  | "offerLabel"
  | "offerText"
  | "offerTextInstall"
  | "offerAccept"
  | "offerAcceptInstall"
  | "offerDismiss"
  | "updateReady"
  | "updateReload";

/** Copy of this device's push settings, the one-tap phone offer and the "Reload to update" bar. */
export const pushCopy: Catalog<PushKey> = {
  en: {
    settingsToggle: "Push to devices",
    settingsLabel: "Notifications on your devices",
    turnOn: "Notify me on this device",
    turnOff: "Stop notifications on this device",
    hideText: "Hide the question in notifications (“Parley has a question for you”)",
    devicesHeading: "Devices that get notifications",
    noDevices: "None yet.",
    thisDevice: "This device",
    aDevice: "A device",
    remove: "Remove",
    blocked: "Notifications are blocked for Parley in this browser's settings.",
    hostAnswered: "The host answered {status}. Try again.",
    offerLabel: "Questions on this device",
    offerText: "Get each question your agents ask as a notification, and answer simple ones right from it.",
    offerTextInstall: "Get each question your agents ask as a notification, with Parley on your home screen, and answer simple ones right from it.",
    offerAccept: "Turn on notifications",
    offerAcceptInstall: "Install and notify me",
    offerDismiss: "Not now",
    updateReady: "A new version of Parley is ready.",
    updateReload: "Reload to update",
  },
  "zh-CN": {
    settingsToggle: "推送到设备",
    settingsLabel: "你的设备上的通知",
    turnOn: "在此设备上通知我",
    turnOff: "停止此设备上的通知",
    hideText: "在通知中隐藏问题（显示为“Parley 有一个问题要问你”）",
    devicesHeading: "接收通知的设备",
    noDevices: "还没有。",
    thisDevice: "此设备",
    aDevice: "一台设备",
    remove: "移除",
    blocked: "此浏览器的设置已阻止 Parley 的通知。",
    hostAnswered: "主机返回了 {status}。请重试。",
    offerLabel: "此设备上的问题",
    offerText: "把智能体提出的每个问题作为通知推送给你，简单的问题可直接在通知中回答。",
    offerTextInstall: "把智能体提出的每个问题作为通知推送给你，并将 Parley 添加到主屏幕；简单的问题可直接在通知中回答。",
    offerAccept: "开启通知",
    offerAcceptInstall: "安装并通知我",
    offerDismiss: "以后再说",
    updateReady: "Parley 有新版本可用。",
    updateReload: "重新加载以更新",
  },
};
