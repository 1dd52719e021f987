import type { Catalog } from "../../i18n/locale";

export type AcpApprovalKey = "eyebrow" | "heading" | "kind" | "locations" | "rawInput" | "diffRegion" | "diffSummary" | "truncated" | "noChanges" | "diffUncompared" | "command" | "reasonLabel" | "reasonPlaceholder" | "back" | "sending" | "sent" | "notPending" | "rejected" | "failed";

/** Copy of the card for an ACP agent's permission request; `{title}` is the agent's, `{tool}` the tool call's title. */
export const acpApprovalCopy: Catalog<AcpApprovalKey> = {
  en: {
    eyebrow: "Permission",
    heading: "{title} asks to run: {tool}",
    kind: "Kind: {kind}",
    locations: "Where",
    rawInput: "Raw input",
    diffRegion: "Changes to {path}",
    diffSummary: "Show the changes ({lines} lines)",
    truncated: "The change is too long to show whole; the end is cut off.",
    noChanges: "No changes",
    diffUncompared: "Too many changes to compare: the new text is shown whole, and the lines it removes are not shown.",
    command: "Command",
    reasonLabel: "Reason (optional, sent to the agent as your next message)",
    reasonPlaceholder: "Tell {title} what to do instead",
    back: "Back",
    sending: "Sending…",
    sent: "Sent",
    notPending: "Already answered",
    rejected: "Refused: {detail}",
    failed: "Not sent: {message}",
  },
  "zh-CN": {
    eyebrow: "权限",
    heading: "{title} 请求运行：{tool}",
    kind: "类型：{kind}",
    locations: "位置",
    rawInput: "原始输入",
    diffRegion: "{path} 的改动",
    diffSummary: "显示改动（{lines} 行）",
    truncated: "改动太长，无法完整显示；末尾已截断。",
    noChanges: "没有改动",
    diffUncompared: "改动太多，无法比较：新文本完整显示，删去的行不显示。",
    command: "命令",
    reasonLabel: "理由（可选，会作为你的下一条消息发给智能体）",
    reasonPlaceholder: "告诉 {title} 应该怎么做",
    back: "返回",
    sending: "发送中…",
    sent: "已发送",
    notPending: "已被回答",
    rejected: "被拒绝：{detail}",
    failed: "未发送：{message}",
  },
};
