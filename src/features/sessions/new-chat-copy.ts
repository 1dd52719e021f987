import type { Catalog } from "../../i18n/locale";

export type NewChatKey =
  | "dialogTitle"
  | "who"
  | "assistant"
  | "assistantNote"
  | "stateReady"
  | "stateStarting"
  | "stateIdle"
  | "stateDisabled"
  | "stateFailed"
  | "workspace"
  | "workspaceHint"
  | "start"
  | "starting"
  | "cancel"
  | "createFailed";

/** Copy of New chat's choice between Parley's assistant and an ACP agent; `{title}` is the agent's title. */
export const newChatCopy: Catalog<NewChatKey> = {
  en: {
    dialogTitle: "New chat",
    who: "Who works in this chat",
    assistant: "Parley's assistant",
    assistantNote: "The model Parley runs",
    stateReady: "ready",
    stateStarting: "starting…",
    stateIdle: "idle, starts with the chat",
    stateDisabled: "turned off",
    stateFailed: "failed, a new chat tries to start it again: {error}",
    workspace: "Workspace folder",
    workspaceHint: "The folder {title} works in, as a full path on the host.",
    start: "Start chat",
    starting: "Starting…",
    cancel: "Cancel",
    createFailed: "The chat could not be started: {error}",
  },
  "zh-CN": {
    dialogTitle: "新对话",
    who: "由谁在此对话中工作",
    assistant: "Parley 的助手",
    assistantNote: "Parley 运行的模型",
    stateReady: "就绪",
    stateStarting: "正在启动…",
    stateIdle: "空闲，随对话启动",
    stateDisabled: "已关闭",
    stateFailed: "出错，新对话会尝试再次启动它：{error}",
    workspace: "工作区文件夹",
    workspaceHint: "{title} 工作的文件夹，填写主机上的完整路径。",
    start: "开始对话",
    starting: "正在开始…",
    cancel: "取消",
    createFailed: "无法开始对话：{error}",
  },
};
