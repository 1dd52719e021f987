import type { Catalog } from "../../i18n/locale";

export type QuestionMessageKey =
  | "requestPosition"
  | "announceStep"
  | "collapse"
  | "expand"
  | "dismiss"
  | "discardPrompt"
  | "keepAnswering"
  | "discard"
  | "previousQuestion"
  | "nextQuestion"
  | "skip"
  | "next"
  | "submit"
  | "submitting"
  | "cancelling"
  | "sent"
  | "customLabel"
  | "customPlaceholder"
  | "recommended"
  | "multiSelectHint"
  | "completeFirst"
  | "rejected"
  | "waitingOne"
  | "answer"
  | "planReview"
  | "planQuestion"
  | "planMoreBelow"
  | "approve"
  | "refuse"
  | "chatAboutIt"
  | "planNoteLabel"
  | "planNotePlaceholder"
  | "arrivedOne"
  | "arrivedMany"
  | "shortcutMac"
  | "shortcutOther"
  | "allAnswered"
  | "answeredSkipped"
  | "leftOf"
  | "stepperLabel"
  | "stepName"
  | "stepAnswered"
  | "stepSkipped"
  | "stepNotYet"
  | "review"
  | "reviewHeading"
  | "reviewStep"
  | "reviewHint"
  | "reviewMissing"
  | "reviewSkipped"
  | "reviewNotAnswered"
  | "change"
  | "changeTarget"
  | "askedBy"
  | "retiredAnswered"
  | "retiredDismissed"
  | "retiredStopped"
  | "retiredAway"
  | "retiredRestart"
  | "retiredHint"
  | "copyAnswers"
  | "copied"
  | "copyManually"
  | "dismissNotice"
  | "askerAssistant"
  | "askerServer"
  | "askerServerStart"
  | "requiredBadge"
  | "requiredHint"
  | "defaultBadge"
  | "defaultHint"
  | "selectAtLeast"
  | "selectAtMost"
  | "selectBetween"
  | "problemEmail"
  | "problemUrl"
  | "problemDate"
  | "problemDateTime"
  | "problemNumber"
  | "problemInteger"
  | "problemMinLength"
  | "problemMaxLength"
  | "problemMinimum"
  | "problemMaximum"
  | "problemTooFew"
  | "problemTooMany"
  | "problemRequired"
  | "reviewRequired"
  | "reviewBlocked"
  | "yesOption"
  | "noOption"
  | "boundsBetween"
  | "boundsAtLeast"
  | "boundsAtMost"
  | "boundsWholeBetween"
  | "boundsWholeAtLeast"
  | "boundsWholeAtMost"
  | "boundsWhole"
  | "boundsLength"
  | "boundsMinLength"
  | "boundsMaxLength"
  | "manyOptions"

/** Every string the question panel shows, in each UI language. */
export const questionCopy: Catalog<QuestionMessageKey> = {
  en: {
    requestPosition: "Request {index} of {count}",
    announceStep: "Question {index} of {count}: {question}",
    collapse: "Collapse the question card",
    expand: "Expand the question card",
    dismiss: "Dismiss all questions",
    discardPrompt: "Discard your answers?",
    keepAnswering: "Keep answering",
    discard: "Discard",
    previousQuestion: "Previous question",
    nextQuestion: "Next question",
    skip: "Skip this question",
    next: "Next",
    submit: "Submit",
    submitting: "Submitting…",
    cancelling: "Dismissing…",
    sent: "Sent. Waiting for {asker}…",
    customLabel: "Type your answer",
    customPlaceholder: "Type your answer",
    recommended: "Recommended",
    multiSelectHint: "Choose all that apply.",
    completeFirst: "Please complete this question first.",
    rejected: "question response rejected: {reason}",
    waitingOne: "1 question waiting",
    answer: "Answer",
    planReview: "Plan review",
    planQuestion: "Approve this plan?",
    planMoreBelow: "More of the plan below: read it before you approve",
    approve: "Approve",
    refuse: "Keep planning",
    chatAboutIt: "Chat about it",
    planNoteLabel: "Anything to add?",
    planNotePlaceholder: "Optional: a note sent with Approve, or what should change with Keep planning",
    arrivedOne: "{asker} asks a question. Press {shortcut} to answer.",
    arrivedMany: "{asker} asks {count} questions. Press {shortcut} to answer.",
    shortcutMac: "Option+Q",
    shortcutOther: "Alt+Q",
    allAnswered: "All {count} answered",
    answeredSkipped: "{answered} answered, {skipped} skipped",
    leftOf: "{left} of {count} left",
    stepperLabel: "Questions",
    stepName: "Question {index} of {count}, {state}",
    stepAnswered: "answered",
    stepSkipped: "skipped",
    stepNotYet: "not answered yet",
    review: "Review",
    reviewHeading: "Review your answers",
    reviewStep: "Review",
    reviewHint: "This is what will be sent.",
    reviewMissing: "{count} not answered: they are sent as skipped unless you change them.",
    reviewSkipped: "Skipped",
    reviewNotAnswered: "Not answered (sent as skipped)",
    change: "Change",
    changeTarget: "Change question {index}",
    askedBy: "Asked by {asker}",
    retiredAnswered: "Answered in another tab",
    retiredDismissed: "Dismissed in another tab",
    retiredStopped: "{asker} stopped waiting",
    retiredAway: "Answered or stopped while this tab was offline",
    retiredRestart: "Host lost: it restarted, and {asker} no longer waits for these answers",
    retiredHint: "These answers were not sent from this tab. They stay here, through a reload too, until you dismiss this notice or close the tab.",
    copyAnswers: "Copy answers",
    copied: "Copied to the clipboard.",
    copyManually: "The answers are selected: press Ctrl+C (⌘C on a Mac) to copy them.",
    dismissNotice: "Dismiss",
    askerAssistant: "Parley's assistant",
    askerServer: "the {name} server",
    askerServerStart: "The {name} server",
    requiredBadge: "Required",
    requiredHint: "An answer is required: this question cannot be skipped.",
    defaultBadge: "Default",
    defaultHint: "Pre-filled with the default answer. Change it if you like.",
    selectAtLeast: "Choose at least {min}.",
    selectAtMost: "Choose up to {max}.",
    selectBetween: "Choose {min} to {max}.",
    problemEmail: "Enter an email address, such as name@example.com.",
    problemUrl: "Enter a full web address, such as https://example.com.",
    problemDate: "Enter a date as YYYY-MM-DD.",
    problemDateTime: "Enter a date and time with its time zone, as YYYY-MM-DDTHH:MMZ or YYYY-MM-DDTHH:MM+08:00.",
    problemNumber: "Enter a number.",
    problemInteger: "Enter a whole number.",
    problemMinLength: "Use at least {limit} characters.",
    problemMaxLength: "Use at most {limit} characters.",
    problemMinimum: "Enter {limit} or more.",
    problemMaximum: "Enter {limit} or less.",
    problemTooFew: "Choose at least {min} options.",
    problemTooMany: "Choose at most {max} options.",
    problemRequired: "This question needs an answer.",
    reviewRequired: "Required: answer it before sending",
    reviewBlocked: "Some answers are missing or not valid. Change them before sending.",
    yesOption: "Yes",
    noOption: "No",
    boundsBetween: "From {min} to {max}.",
    boundsAtLeast: "{min} or more.",
    boundsAtMost: "{max} or less.",
    boundsWholeBetween: "A whole number from {min} to {max}.",
    boundsWholeAtLeast: "A whole number, {min} or more.",
    boundsWholeAtMost: "A whole number, {max} or less.",
    boundsWhole: "A whole number.",
    boundsLength: "{min} to {max} characters.",
    boundsMinLength: "At least {min} characters.",
    boundsMaxLength: "Up to {max} characters.",
    manyOptions: "{count} options: the list scrolls. 1–9 choose the first nine; ↑ ↓ reach the rest, Home and End the ends.",
  },
  "zh-CN": {
    requestPosition: "第 {index} 个请求，共 {count} 个",
    announceStep: "第 {index} 题，共 {count} 题：{question}",
    collapse: "收起问题卡片",
    expand: "展开问题卡片",
    dismiss: "忽略全部问题",
    discardPrompt: "要放弃已填写的回答吗？",
    keepAnswering: "继续回答",
    discard: "放弃",
    previousQuestion: "上一题",
    nextQuestion: "下一题",
    skip: "跳过此题",
    next: "下一步",
    submit: "提交",
    submitting: "正在提交…",
    cancelling: "正在忽略…",
    sent: "已发送，等待{asker}继续…",
    customLabel: "输入你的回答",
    customPlaceholder: "输入你的回答",
    recommended: "推荐",
    multiSelectHint: "可多选。",
    completeFirst: "请先完成这道题。",
    rejected: "回答未被接受：{reason}",
    waitingOne: "1 个问题待回答",
    answer: "回答",
    planReview: "计划审阅",
    planQuestion: "批准这个计划吗？",
    planMoreBelow: "计划下方还有内容：批准前请读完",
    approve: "批准",
    refuse: "继续规划",
    chatAboutIt: "先聊聊",
    planNoteLabel: "还有什么要补充的吗？",
    planNotePlaceholder: "可选：随“批准”发送的备注，或随“继续规划”说明要修改什么",
    arrivedOne: "{asker}提出了一个问题。按 {shortcut} 回答。",
    arrivedMany: "{asker}提出了 {count} 个问题。按 {shortcut} 回答。",
    shortcutMac: "Option+Q",
    shortcutOther: "Alt+Q",
    allAnswered: "{count} 题均已回答",
    answeredSkipped: "已回答 {answered} 题，跳过 {skipped} 题",
    leftOf: "剩余 {left} 题，共 {count} 题",
    stepperLabel: "问题",
    stepName: "第 {index} 题，共 {count} 题，{state}",
    stepAnswered: "已回答",
    stepSkipped: "已跳过",
    stepNotYet: "尚未回答",
    review: "检查",
    reviewHeading: "检查你的回答",
    reviewStep: "检查",
    reviewHint: "以下内容将被发送。",
    reviewMissing: "{count} 题未回答：除非修改，否则将作为跳过发送。",
    reviewSkipped: "已跳过",
    reviewNotAnswered: "未回答（将作为跳过发送）",
    change: "修改",
    changeTarget: "修改第 {index} 题",
    askedBy: "提问方：{asker}",
    retiredAnswered: "已在另一个标签页中回答",
    retiredDismissed: "已在另一个标签页中忽略",
    retiredStopped: "{asker}已停止等待",
    retiredAway: "此标签页离线期间已被回答或停止",
    retiredRestart: "主机已丢失：它已重启，{asker}不再等待这些回答",
    retiredHint: "这些回答没有从此标签页发送。在你关闭此提示或关闭此标签页前，它们会一直保留在这里，重新加载页面也不会丢失。",
    copyAnswers: "复制回答",
    copied: "已复制到剪贴板。",
    copyManually: "回答已选中：按 Ctrl+C（Mac 上为 ⌘C）复制。",
    dismissNotice: "关闭",
    askerAssistant: "Parley 助手",
    askerServer: "{name} 服务器",
    askerServerStart: "{name} 服务器",
    requiredBadge: "必答",
    requiredHint: "此题必须回答，不能跳过。",
    defaultBadge: "默认",
    defaultHint: "已预填默认答案，可按需修改。",
    selectAtLeast: "至少选择 {min} 项。",
    selectAtMost: "最多选择 {max} 项。",
    selectBetween: "选择 {min} 到 {max} 项。",
    problemEmail: "请输入电子邮件地址，例如 name@example.com。",
    problemUrl: "请输入完整网址，例如 https://example.com。",
    problemDate: "请按 YYYY-MM-DD 格式输入日期。",
    problemDateTime: "请输入带时区的日期和时间，格式为 YYYY-MM-DDTHH:MMZ 或 YYYY-MM-DDTHH:MM+08:00。",
    problemNumber: "请输入数字。",
    problemInteger: "请输入整数。",
    problemMinLength: "至少输入 {limit} 个字符。",
    problemMaxLength: "最多输入 {limit} 个字符。",
    problemMinimum: "请输入不小于 {limit} 的数。",
    problemMaximum: "请输入不大于 {limit} 的数。",
    problemTooFew: "至少选择 {min} 个选项。",
    problemTooMany: "最多选择 {max} 个选项。",
    problemRequired: "此题需要回答。",
    reviewRequired: "必答：发送前请先回答",
    reviewBlocked: "有回答缺失或无效，请先修改再发送。",
    yesOption: "是",
    noOption: "否",
    boundsBetween: "{min} 到 {max} 之间。",
    boundsAtLeast: "不小于 {min}。",
    boundsAtMost: "不大于 {max}。",
    boundsWholeBetween: "{min} 到 {max} 之间的整数。",
    boundsWholeAtLeast: "不小于 {min} 的整数。",
    boundsWholeAtMost: "不大于 {max} 的整数。",
    boundsWhole: "请输入整数。",
    boundsLength: "{min} 到 {max} 个字符。",
    boundsMinLength: "至少 {min} 个字符。",
    boundsMaxLength: "最多 {max} 个字符。",
    manyOptions: "共 {count} 个选项，列表可滚动。1–9 选择前九项；↑ ↓ 可到达其余选项，Home 和 End 跳到首尾。",
  },
};
