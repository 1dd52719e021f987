import type { Catalog } from "../i18n/locale";

type DemoKey =
  | "pageTitle"
  | "storiesHeading"
  | "controlsHeading"
  | "language"
  | "languageEnglish"
  | "languageChinese"
  | "theme"
  | "themeLight"
  | "themeDark"
  | "themeSystem"
  | "width"
  | "widthPhone"
  | "widthTablet"
  | "widthDesktop"
  | "reply"
  | "replyAccept"
  | "replyNotPending"
  | "replyBadResponse"
  | "replyNetworkError"
  | "replySlow"
  | "hostActions"
  | "hostAsk"
  | "hostAnswerElsewhere"
  | "hostRestart"
  | "previewTitle"
  | "logHeading"
  | "logEmpty"
  | "logEntry"
  | "statusPending"
  | "statusAccepted"
  | "statusRejected"
  | "statusNetworkError"
  | "copy"
  | "copied"
  | "copyFallback"
  | "clearLog"
  | "conversation"
  | "resolvedAnswered"
  | "resolvedCancelled"
  | "resolvedAborted"
  | "replay"
  | "typingText"
  | "playgroundInvalid"
  | "playgroundRoot"
  | "playgroundLabel"
  | "playgroundHint"
  | "showLog"
  | "hideLog";

/** The demo page's own copy; story content is model-written text and is never translated. */
export const demoCopy: Catalog<DemoKey> = {
  en: {
    pageTitle: "Parley demo",
    storiesHeading: "Stories",
    controlsHeading: "Controls",
    language: "Language",
    languageEnglish: "English",
    languageChinese: "简体中文",
    theme: "Theme",
    themeLight: "Light",
    themeDark: "Dark",
    themeSystem: "System",
    width: "Width",
    widthPhone: "Phone 360",
    widthTablet: "Tablet 768",
    widthDesktop: "Desktop",
    reply: "Host reply",
    replyAccept: "Accept",
    replyNotPending: "not-pending",
    replyBadResponse: "bad-response",
    replyNetworkError: "Network error",
    replySlow: "Slow 3 s, then accept",
    hostActions: "Fake host",
    hostAsk: "Ask again",
    hostAnswerElsewhere: "Answer in another tab",
    hostRestart: "Restart host",
    previewTitle: "Story preview: {title}",
    logHeading: "Sent to /api/respond",
    logEmpty: "Nothing sent yet. Answer or dismiss the question to see the exact body.",
    logEntry: "#{n} {type} · {story}",
    statusPending: "Waiting for the receipt…",
    statusAccepted: "Accepted",
    statusRejected: "Rejected: {reason}: {detail}",
    statusNetworkError: "Network error: {message}",
    copy: "Copy",
    copied: "Copied",
    copyFallback: "The clipboard is not available here: the body is selected, press Ctrl+C (⌘C on a Mac) to copy it.",
    clearLog: "Clear log",
    conversation: "Conversation",
    resolvedAnswered: "The host resolved the request: answered.",
    resolvedCancelled: "The host resolved the request: cancelled.",
    resolvedAborted: "The host resolved the request: aborted.",
    replay: "Replay story",
    typingText: "I have 3 cats and 2 dogs",
    playgroundInvalid: "{count} problems: the host would refuse these arguments with INVALID_ARGS.",
    playgroundRoot: "(the whole value)",
    playgroundLabel: "ask_user_question arguments (JSON)",
    playgroundHint: "The preview shows the panel once the arguments are valid; the address carries them, so you can share it.",
    showLog: "Show log ({count})",
    hideLog: "Hide log",
  },
  "zh-CN": {
    pageTitle: "Parley 演示",
    storiesHeading: "示例",
    controlsHeading: "控制",
    language: "语言",
    languageEnglish: "English",
    languageChinese: "简体中文",
    theme: "主题",
    themeLight: "浅色",
    themeDark: "深色",
    themeSystem: "跟随系统",
    width: "宽度",
    widthPhone: "手机 360",
    widthTablet: "平板 768",
    widthDesktop: "桌面",
    reply: "主机回复",
    replyAccept: "接受",
    replyNotPending: "not-pending（不在等待中）",
    replyBadResponse: "bad-response（回复无效）",
    replyNetworkError: "网络错误",
    replySlow: "慢速：3 秒后接受",
    hostActions: "模拟主机",
    hostAsk: "再次提问",
    hostAnswerElsewhere: "在另一个标签页中回答",
    hostRestart: "重启主机",
    previewTitle: "示例预览：{title}",
    logHeading: "发送到 /api/respond 的内容",
    logEmpty: "尚未发送任何内容。回答或放弃问题即可看到确切的请求体。",
    logEntry: "#{n} {type} · {story}",
    statusPending: "正在等待回执…",
    statusAccepted: "已接受",
    statusRejected: "已拒绝：{reason}：{detail}",
    statusNetworkError: "网络错误：{message}",
    copy: "复制",
    copied: "已复制",
    copyFallback: "此处无法使用剪贴板：请求体已选中，请按 Ctrl+C（Mac 上按 ⌘C）复制。",
    clearLog: "清空记录",
    conversation: "对话",
    resolvedAnswered: "主机已结束该请求：已回答。",
    resolvedCancelled: "主机已结束该请求：已取消。",
    resolvedAborted: "主机已结束该请求：已中止。",
    replay: "重放示例",
    typingText: "我有 3 只猫和 2 只狗",
    playgroundInvalid: "{count} 个问题：主机会以 INVALID_ARGS 拒绝这些参数。",
    playgroundRoot: "（整个值）",
    playgroundLabel: "ask_user_question 参数（JSON）",
    playgroundHint: "参数有效后预览会显示面板；地址中带有这些参数，便于分享。",
    showLog: "显示日志（{count}）",
    hideLog: "隐藏日志",
  },
};
