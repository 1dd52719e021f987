import { englishFirst } from "../../i18n/locale";

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
  | "serverWaiting"
  | "sendBlockedByTurn"
  | "sendBlockedByAgent"
  | "messageTooLong"
  | "sendFailed"
  | "starterFailed"
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
  | "agentEmpty"
  | "acpEmpty";

/** Copy of the chat feature; its Chinese is in `copy-zh.ts`. */
export const chatCopy = englishFirst<ChatKey>({
  messageLabel: "Message",
  messagePlaceholder: "Message {name} (Enter to send, Shift+Enter for a new line)",
  send: "Send",
  stop: "Stop",
  stopping: "Stopping…",
  turnRunning: "Parley's assistant is working…",
  turnWaiting: "Parley's assistant is waiting for your answer.",
  agentRunning: "{name} is working…",
  agentWaiting: "{name} is waiting for your answer.",
  serverWaiting: "The {name} server is waiting for your answer.",
  sendBlockedByTurn: "You can send when Parley's assistant has finished, or press Stop.",
  sendBlockedByAgent: "You can send when {name} has finished, or press Stop.",
  messageTooLong: "The message is too long: {count} of {max} characters.",
  sendFailed: "Your message was not sent and is back in the box. {reason}",
  starterFailed: "The starter was not sent. {reason}",
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
  messagePlaceholderTouch: "Message {name}",
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
  acpEmpty: "Tell {name} what to do: type below and press Enter. Its questions and requests for permission appear in the panel.",
});
