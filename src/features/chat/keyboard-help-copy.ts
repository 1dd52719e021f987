import type { Catalog } from "../../i18n/locale";

export type KeyboardHelpKey =
  | "shortcutsTitle"
  | "shortcutsChat"
  | "shortcutsPanel"
  | "keySend"
  | "keyNewLine"
  | "keyStop"
  | "keyHelp"
  | "keyCommands"
  | "keyFocusPanel"
  | "keyPickNumber"
  | "keyMoveOption"
  | "keyFirstLast"
  | "keyNextQuestion"
  | "keyCustomNewLine"
  | "keyFoldPanel"
  | "close";

/** Copy of the keyboard shortcuts dialog (loaded with it). */
export const keyboardHelpCopy: Catalog<KeyboardHelpKey> = {
  en: {
    shortcutsTitle: "Keyboard shortcuts",
    shortcutsChat: "Chat",
    shortcutsPanel: "Question panel",
    keySend: "Send the message (on a touch keyboard Enter is a new line; use Send)",
    keyNewLine: "New line in the message",
    keyStop: "Stop the running reply (when no question panel is open)",
    keyHelp: "Show this list (when not typing)",
    keyCommands: "Open the command menu (in an empty message box): ↑ ↓ choose, Enter or Tab complete, Esc closes it",
    keyFocusPanel: "Turn to the question panel from anywhere (Option+Q on a Mac)",
    keyPickNumber: "Choose option 1 to 9 of the question",
    keyMoveOption: "Move between the options",
    keyFirstLast: "Go to the first or last option",
    keyNextQuestion: "Choose the focused option, or go on to the next question (submit on the last)",
    keyCustomNewLine: "New line in your own answer",
    keyFoldPanel: "Fold the panel into a one-line bar",
    close: "Close",
  },
  "zh-CN": {
    shortcutsTitle: "键盘快捷键",
    shortcutsChat: "对话",
    shortcutsPanel: "提问面板",
    keySend: "发送消息（触屏键盘上 Enter 为换行，请用“发送”按钮）",
    keyNewLine: "在消息中换行",
    keyStop: "停止正在生成的回复（没有打开提问面板时）",
    keyHelp: "显示此列表（未在输入时）",
    keyCommands: "打开命令菜单（在空的消息框中）：↑ ↓ 选择，Enter 或 Tab 补全，Esc 关闭",
    keyFocusPanel: "从页面任意位置转到提问面板（Mac 上为 Option+Q）",
    keyPickNumber: "选择问题的第 1 到 9 个选项",
    keyMoveOption: "在选项之间移动",
    keyFirstLast: "跳到第一个或最后一个选项",
    keyNextQuestion: "选择当前选项，或进入下一个问题（最后一个问题时提交）",
    keyCustomNewLine: "在自己的回答中换行",
    keyFoldPanel: "将面板折叠为一行",
    close: "关闭",
  },
};
