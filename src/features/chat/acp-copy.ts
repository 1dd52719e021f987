import type { Catalog } from "../../i18n/locale";

export type AcpMessageKey =
  | "thinking"
  | "plan"
  | "planStatus"
  | "diffRegion"
  | "diffSummary"
  | "truncated"
  | "noChanges"
  | "diffUncompared"
  | "output"
  | "rawInput"
  | "toolStatus"
  | "toolStopped"
  | "toolHostStopped"
  | "sessionStarting"
  | "sessionReady"
  | "sessionFailed"
  | "restored"
  | "memoryLost"
  | "mode"
  | "modeNeverAsks"
  | "modeKeep"
  | "modeSwitch"
  | "modeFailed"
  | "commands"
  | "usage";

/** Copy of an ACP agent's rows; `{title}` is the agent's title. */
export const acpCopy: Catalog<AcpMessageKey> = {
  en: {
    thinking: "Thinking",
    plan: "Plan",
    planStatus: "{status}",
    diffRegion: "Changes to {path}",
    diffSummary: "Show the changes ({lines} lines)",
    truncated: "The change is too long to show whole; the end is cut off.",
    noChanges: "No changes",
    diffUncompared: "Too many changes to compare: the new text is shown whole, and the lines it removes are not shown.",
    output: "Output",
    rawInput: "Input",
    toolStatus: "{kind} · {status}",
    toolStopped: "stopped",
    toolHostStopped: "Interrupted: the host running this call stopped before it finished.",
    sessionStarting: "Starting {title} in {cwd}…",
    sessionReady: "{title} in {cwd}",
    sessionFailed: "{title} could not start: {error}",
    restored: "{title} was restarted and loaded this chat with its memory.",
    memoryLost: "{title} was restarted in a fresh session: its memory of this chat is lost.",
    mode: "Mode",
    modeNeverAsks: "In mode {mode}, {title} acts without asking you first. Switch?",
    modeKeep: "Keep {mode}",
    modeSwitch: "Switch to {mode}",
    modeFailed: "The mode could not be changed: {error}",
    commands: "Commands: {names}",
    usage: "Context {used} of {size} tokens",
  },
  "zh-CN": {
    thinking: "思考",
    plan: "计划",
    planStatus: "{status}",
    diffRegion: "{path} 的改动",
    diffSummary: "显示改动（{lines} 行）",
    truncated: "改动太长，无法完整显示；末尾已截断。",
    noChanges: "没有改动",
    diffUncompared: "改动太多，无法比较：新文本完整显示，删去的行不显示。",
    output: "输出",
    rawInput: "输入",
    toolStatus: "{kind} · {status}",
    toolStopped: "已停止",
    toolHostStopped: "已中断：运行此调用的主机在它完成之前停止了。",
    sessionStarting: "正在 {cwd} 中启动 {title}…",
    sessionReady: "{title} 位于 {cwd}",
    sessionFailed: "{title} 无法启动：{error}",
    restored: "{title} 已重启，并带着记忆载入了此对话。",
    memoryLost: "{title} 已在新会话中重启：它对此对话的记忆已丢失。",
    mode: "模式",
    modeNeverAsks: "在 {mode} 模式下，{title} 会不经询问直接操作。要切换吗？",
    modeKeep: "保持 {mode}",
    modeSwitch: "切换到 {mode}",
    modeFailed: "无法切换模式：{error}",
    commands: "命令：{names}",
    usage: "上下文 {used} / {size} 个词元",
  },
};

export { NEVER_ASKING_MODES } from "../../protocol/acp-modes";
