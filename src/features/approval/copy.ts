import type { Catalog } from "../../i18n/locale";

export type ApprovalMessageKey =
  | "eyebrow"
  | "destructiveBadge"
  | "destructiveHint"
  | "back"
  | "requestPosition"
  | "heading"
  | "argumentsLabel"
  | "noArguments"
  | "reasonLabel"
  | "reasonPlaceholder"
  | "reasonPlaceholderAgent"
  | "allowOnce"
  | "allowForChat"
  | "deny"
  | "sending"
  | "sent"
  | "notPending"
  | "rejected"
  | "failed"
  | "grantsButton"
  | "grantsHeading"
  | "grantsLoading"
  | "grantsEmpty"
  | "grantsFailed"
  | "revoke"
  | "revokeLabel";

/** Every string the approval card shows, in each UI language. */
export const approvalCopy: Catalog<ApprovalMessageKey> = {
  en: {
    eyebrow: "Tool approval",
    destructiveBadge: "Destructive",
    destructiveHint: "The {server} server marks this tool as destructive: it may delete or overwrite data. Deny unless you meant it.",
    back: "Back",
    requestPosition: "Request 1 of {count}",
    heading: "Allow {server} to run {tool}?",
    argumentsLabel: "Arguments",
    noArguments: "This call has no arguments.",
    reasonLabel: "Reason for denying (optional)",
    reasonPlaceholder: "Sent with Deny to Parley's assistant",
    reasonPlaceholderAgent: "Sent with Deny to {name}",
    allowOnce: "Allow once",
    allowForChat: "Allow for this chat",
    deny: "Deny",
    sending: "Sending…",
    sent: "Sent. Waiting for the tool…",
    notPending: "This request was already answered, dismissed or stopped.",
    rejected: "The host refused this answer: {detail}",
    failed: "Could not reach the host: {message}",
    grantsButton: "Allowed tools",
    grantsHeading: "Tools allowed for this chat",
    grantsLoading: "Loading…",
    grantsEmpty: "No tool is allowed for this chat: every acting call asks first.",
    grantsFailed: "Could not load the allowed tools: {message}",
    revoke: "Revoke",
    revokeLabel: "Revoke {tool} from {server}",
  },
  "zh-CN": {
    eyebrow: "工具授权",
    destructiveBadge: "破坏性操作",
    destructiveHint: "{server} 服务器将此工具标记为破坏性：它可能删除或覆盖数据。除非你确有此意，否则请拒绝。",
    back: "返回",
    requestPosition: "第 1 个请求，共 {count} 个",
    heading: "允许 {server} 运行 {tool} 吗？",
    argumentsLabel: "参数",
    noArguments: "这次调用没有参数。",
    reasonLabel: "拒绝的理由（可选）",
    reasonPlaceholder: "随“拒绝”发送给 Parley 助手",
    reasonPlaceholderAgent: "随“拒绝”发送给 {name}",
    allowOnce: "仅允许这一次",
    allowForChat: "在此对话中始终允许",
    deny: "拒绝",
    sending: "正在发送…",
    sent: "已发送，正在等待工具…",
    notPending: "这个请求已被回答、忽略或已停止。",
    rejected: "主机拒绝了这个回答：{detail}",
    failed: "无法连接主机：{message}",
    grantsButton: "已允许的工具",
    grantsHeading: "此对话中已允许的工具",
    grantsLoading: "正在加载…",
    grantsEmpty: "此对话中没有已允许的工具：每次执行操作的调用都会先询问。",
    grantsFailed: "无法加载已允许的工具：{message}",
    revoke: "撤销",
    revokeLabel: "撤销 {server} 的 {tool}",
  },
};
