import type { Catalog } from "../../i18n/locale";

export type ChatKey =
  | "messageLabel"
  | "messagePlaceholder"
  | "send"
  | "stop"
  | "stopping"
  | "turnRunning"
  | "turnWaiting"
  | "agentRunning"
  | "agentWaiting"
  | "sendBlockedByTurn"
  | "sendBlockedByAgent"
  | "messageTooLong"
  | "sendFailed"
  | "stopFailed"
  | "connecting"
  | "offline"
  | "loginRequired"
  | "transcriptLabel"
  | "showEarlier"
  | "emptyTitle"
  | "emptyHint"
  | "you"
  | "assistant"
  | "thinking"
  | "askQuestion"
  | "planReview"
  | "toolWaiting"
  | "toolMoreQuestions"
  | "toolAnswered"
  | "toolCancelled"
  | "toolInterrupted"
  | "toolHostStopped"
  | "toolAnsweredHostStopped"
  | "toolDismissedHostStopped"
  | "toolDeniedHostStopped"
  | "toolAllowedHostStopped"
  | "toolFailed"
  | "toolDone"
  | "toolRunning"
  | "planApproved"
  | "planFeedback"
  | "showDetails"
  | "hideDetails"
  | "answerSkipped"
  | "answerNone"
  | "answerFeedback"
  | "answerNote"
  | "recommended"
  | "callRejected"
  | "toolAwaitingApproval"
  | "toolDenied"
  | "untitled"
  | "slotFailed"
  | "draftRestored"
  | "transcriptFailed"
  | "rowFailed"
  | "tryAgain"
  | "dismiss"
  | "dismissFailed"
  | "jumpToLatest"
  | "jumpToLatestCount"
  | "messagePlaceholderTouch"
  | "retrySend"
  | "retryNow"
  | "failureUnreachable"
  | "failureTurnRunning"
  | "failureRateLimited"
  | "failureMissing"
  | "failureStorage"
  | "failureOther"
  | "agentNotice"
  | "copyMessage"
  | "turnFailed"
  | "turnInterrupted"
  | "turnStopped"
  | "retryTurn"
  | "retryFailed"
  | "shortcutsButton"
  | "renameFailed"
  | "renameTitle"
  | "commandMenuLabel"
  | "commandMenuHelp"
  | "commandAsk"
  | "commandPlan"
  | "commandTool"
  | "commandEcho"
  | "firstDemoModel"
  | "startersLabel"
  | "starterAsk"
  | "starterPlan"
  | "starterTool"
  | "starterDemo"
  | "firstRealModel"
  | "agentEmpty";

/** Copy of the chat feature. */
export const chatCopy: Catalog<ChatKey> = {
  en: {
    messageLabel: "Message",
    messagePlaceholder: "Message Parley (Enter to send, Shift+Enter for a new line)",
    send: "Send",
    stop: "Stop",
    stopping: "Stopping…",
    turnRunning: "Parley's assistant is working…",
    turnWaiting: "Parley's assistant is waiting for your answer.",
    agentRunning: "{name} is working…",
    agentWaiting: "{name} is waiting for your answer.",
    sendBlockedByTurn: "You can send when Parley's assistant has finished, or press Stop.",
    sendBlockedByAgent: "You can send when {name} has finished, or press Stop.",
    messageTooLong: "The message is too long: {count} of {max} characters.",
    sendFailed: "Your message was not sent and is back in the box. {reason}",
    stopFailed: "Could not stop. {reason}",
    connecting: "Connecting to Parley…",
    offline: "Parley's host is unreachable. Reconnecting…",
    loginRequired: "This Parley host needs a login: open the link with the token that the host printed when it started.",
    transcriptLabel: "Messages",
    showEarlier: "Show earlier messages",
    emptyTitle: "Start a conversation",
    emptyHint: "Ask anything. When Parley's assistant needs a decision from you, it asks here.",
    you: "You",
    assistant: "Assistant",
    thinking: "Thinking…",
    askQuestion: "Ask question",
    planReview: "Plan review",
    toolWaiting: "waiting",
    toolMoreQuestions: "+{count} more",
    toolAnswered: "{answered}/{total} answered",
    toolCancelled: "cancelled",
    toolInterrupted: "interrupted",
    toolHostStopped: "Interrupted: the host running this call stopped before it finished.",
    toolAnsweredHostStopped: "Answered; the host stopped before the agent read it.",
    toolDismissedHostStopped: "Dismissed; the host stopped before the agent read it.",
    toolDeniedHostStopped: "Denied; the host stopped before the agent read it.",
    toolAllowedHostStopped: "Allowed, but the host running the call stopped before it finished: it may not have run, or not to its end.",
    toolFailed: "failed: {code}",
    toolDone: "done",
    toolRunning: "running",
    planApproved: "approved",
    planFeedback: "changes requested",
    showDetails: "Show details",
    hideDetails: "Hide details",
    answerSkipped: "Skipped",
    answerNone: "No answer",
    answerFeedback: "Feedback",
    answerNote: "Note",
    recommended: "Recommended",
    callRejected: "Nothing was asked: the call was refused, and the agent received this reason.",
    toolAwaitingApproval: "waiting for approval",
    toolDenied: "denied",
    untitled: "New chat",
    slotFailed: "The question could not be shown. Dismiss it, or press Stop to end the turn.",
    draftRestored: "Your unsent draft is back. Enter sends it once you have pressed another key.",
    transcriptFailed: "The messages could not be shown.",
    rowFailed: "This message could not be shown.",
    tryAgain: "Try again",
    dismiss: "Dismiss",
    dismissFailed: "Could not dismiss: {reason}",
    jumpToLatest: "Jump to latest",
    jumpToLatestCount: "Jump to latest ({count} new)",
    messagePlaceholderTouch: "Message Parley",
    retrySend: "Retry",
    retryNow: "Retry now",
    failureUnreachable: "Parley's host cannot be reached; check that it is running.",
    failureTurnRunning: "Parley's assistant is still working on the previous message.",
    failureRateLimited: "Too many requests just now; wait a moment and try again.",
    failureMissing: "This chat no longer exists.",
    failureStorage: "The host could not save: its disk is full or read-only.",
    failureOther: "The host said: {reason}",
    copyMessage: "Copy message",
    turnFailed: "The reply failed.",
    turnInterrupted: "The reply was cut off.",
    turnStopped: "The reply was stopped.",
    retryTurn: "Retry",
    retryFailed: "Could not retry. {reason}",
    shortcutsButton: "Keyboard shortcuts",
    renameFailed: "Could not rename. {reason}",
    renameTitle: "Rename chat",
    agentNotice: "{name}, an outside agent, asks its questions in this chat: answer them in the panel when they appear. Stop cancels what {name} is waiting for.",
    commandMenuLabel: "Commands",
    commandMenuHelp: "↑ ↓ to choose · Enter or Tab to complete · Esc to close",
    commandAsk: "Ask you questions: the arguments of ask_user_question as JSON",
    commandPlan: "Present a plan in Markdown for you to approve",
    commandTool: "Call an MCP server's tool, asking your approval first when it acts",
    commandEcho: "Reply with the text as it is",
    firstDemoModel: "This host runs the demo model: scripted replies, no AI behind them. Type / for its commands, or try one:",
    startersLabel: "Try the demo model",
    starterAsk: "/ask a sample batch",
    starterPlan: "/plan a sample plan",
    starterTool: "/tool of the {server} server",
    starterDemo: "See every question and card state at /demo",
    firstRealModel: "Parley's assistant stops to ask you when it needs a decision: a question panel takes this box's place, and you answer with a click or a key.",
    agentEmpty: "{name} has asked nothing yet. Its questions appear below, in the panel.",
  },
  "zh-CN": {
    messageLabel: "消息",
    messagePlaceholder: "给 Parley 发消息（Enter 发送，Shift+Enter 换行）",
    send: "发送",
    stop: "停止",
    stopping: "正在停止…",
    turnRunning: "Parley 助手正在处理…",
    turnWaiting: "Parley 助手正在等待你的回答。",
    agentRunning: "{name} 正在处理…",
    agentWaiting: "{name} 正在等待你的回答。",
    sendBlockedByTurn: "Parley 助手完成后才能发送，也可以点击“停止”。",
    sendBlockedByAgent: "{name} 完成后才能发送，也可以点击“停止”。",
    messageTooLong: "消息太长：{count} / {max} 个字符。",
    sendFailed: "消息未发送，已放回输入框。{reason}",
    stopFailed: "停止失败。{reason}",
    connecting: "正在连接 Parley…",
    offline: "无法连接到 Parley 主机，正在重新连接…",
    loginRequired: "此 Parley 主机需要登录：请打开主机启动时打印的带令牌的链接。",
    transcriptLabel: "消息记录",
    showEarlier: "显示更早的消息",
    emptyTitle: "开始对话",
    emptyHint: "随便问点什么。Parley 助手需要你做决定时，会在这里提问。",
    you: "你",
    assistant: "助手",
    thinking: "正在思考…",
    askQuestion: "提问",
    planReview: "计划审阅",
    toolWaiting: "等待中",
    toolMoreQuestions: "另有 {count} 题",
    toolAnswered: "已回答 {answered}/{total}",
    toolCancelled: "已取消",
    toolInterrupted: "已中断",
    toolHostStopped: "已中断：运行此调用的主机在调用完成前停止了。",
    toolAnsweredHostStopped: "已回答；主机在智能体读取答案之前停止了。",
    toolDismissedHostStopped: "已关闭；主机在智能体读取之前停止了。",
    toolDeniedHostStopped: "已拒绝；主机在智能体读取之前停止了。",
    toolAllowedHostStopped: "已允许，但运行此调用的主机在调用完成前停止了：调用可能没有运行，或没有运行完。",
    toolFailed: "失败：{code}",
    toolDone: "完成",
    toolRunning: "运行中",
    planApproved: "已批准",
    planFeedback: "要求修改",
    showDetails: "显示详情",
    hideDetails: "隐藏详情",
    answerSkipped: "已跳过",
    answerNone: "未回答",
    answerFeedback: "反馈",
    answerNote: "备注",
    recommended: "推荐",
    callRejected: "没有提出任何问题：调用被拒绝，助手收到了以下原因。",
    toolAwaitingApproval: "等待授权",
    toolDenied: "已拒绝",
    untitled: "新对话",
    slotFailed: "无法显示该问题。可以忽略它，或点击“停止”结束本轮。",
    draftRestored: "你未发送的草稿已恢复。先按任意其他键，回车才会发送它。",
    transcriptFailed: "无法显示消息记录。",
    rowFailed: "无法显示这条消息。",
    tryAgain: "重试",
    dismiss: "忽略",
    dismissFailed: "忽略失败：{reason}",
    jumpToLatest: "跳到最新",
    jumpToLatestCount: "跳到最新（{count} 条新消息）",
    messagePlaceholderTouch: "给 Parley 发消息",
    retrySend: "重试",
    retryNow: "立即重试",
    failureUnreachable: "无法连接到 Parley 主机，请确认它正在运行。",
    failureTurnRunning: "Parley 助手仍在处理上一条消息。",
    failureRateLimited: "请求过于频繁，请稍候再试。",
    failureMissing: "该对话已不存在。",
    failureStorage: "主机无法保存：磁盘已满或只读。",
    failureOther: "主机返回：{reason}",
    copyMessage: "复制消息",
    turnFailed: "回复失败。",
    turnInterrupted: "回复被中断。",
    turnStopped: "回复已停止。",
    retryTurn: "重试",
    retryFailed: "重试失败。{reason}",
    shortcutsButton: "键盘快捷键",
    renameFailed: "重命名失败。{reason}",
    renameTitle: "重命名对话",
    agentNotice: "{name} 是外部智能体，会在此对话中提问：问题出现时请在面板中回答。“停止”会取消 {name} 正在等待的提问。",
    commandMenuLabel: "命令",
    commandMenuHelp: "↑ ↓ 选择 · Enter 或 Tab 补全 · Esc 关闭",
    commandAsk: "向你提问：JSON 格式的 ask_user_question 参数",
    commandPlan: "提交 Markdown 格式的计划供你批准",
    commandTool: "调用 MCP 服务器的工具，执行操作前先请你授权",
    commandEcho: "原样回复这段文字",
    firstDemoModel: "此主机运行的是演示模型：回复都是预设的，背后没有 AI。输入 / 查看命令，或试试：",
    startersLabel: "试用演示模型",
    starterAsk: "/ask 一组示例问题",
    starterPlan: "/plan 一个示例计划",
    starterTool: "/tool 调用 {server} 服务器的工具",
    starterDemo: "在 /demo 查看每种问题和卡片状态",
    firstRealModel: "Parley 助手需要你做决定时会停下来提问：问题面板会取代这个输入框，点一下或按个键即可回答。",
    agentEmpty: "{name} 还没有提问。它的问题会出现在下方的面板中。",
  },
};
