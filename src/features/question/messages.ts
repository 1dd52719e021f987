import type { Catalog } from "../../i18n/locale";

type QuestionMessageKey =
  | "requestPosition"
  | "progress"
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
  | "waitingMany"
  | "answer"
  | "planReview"
  | "approve"
  | "refuse"
  | "chatAboutIt"
  | "planFeedbackPlaceholder"

/** Every string the question panel shows, in each UI language. */
export const questionMessages: Catalog<QuestionMessageKey> = {
  en: {
    requestPosition: "Request {index} of {count}",
    progress: "{index} / {count}",
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
    sent: "Sent. Waiting for the agent…",
    customLabel: "Type your answer",
    customPlaceholder: "Type your answer",
    recommended: "Recommended",
    multiSelectHint: "Choose all that apply.",
    completeFirst: "Please complete this question first.",
    rejected: "question response rejected: {reason}",
    waitingOne: "1 question waiting",
    waitingMany: "{count} questions waiting",
    answer: "Answer",
    planReview: "Plan review",
    approve: "Approve",
    refuse: "Refuse",
    chatAboutIt: "Chat about it",
    planFeedbackPlaceholder: "What should change? (optional)",
  },
  "zh-CN": {
    requestPosition: "第 {index} 个请求，共 {count} 个",
    progress: "{index} / {count}",
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
    sent: "已发送，等待助手继续…",
    customLabel: "输入你的回答",
    customPlaceholder: "输入你的回答",
    recommended: "推荐",
    multiSelectHint: "可多选。",
    completeFirst: "请先完成这道题。",
    rejected: "回答未被接受：{reason}",
    waitingOne: "1 个问题待回答",
    waitingMany: "{count} 个问题待回答",
    answer: "回答",
    planReview: "计划审阅",
    approve: "批准",
    refuse: "拒绝",
    chatAboutIt: "先聊聊",
    planFeedbackPlaceholder: "需要修改什么？（可选）",
  },
};
