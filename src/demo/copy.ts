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
  | "replyLost"
  | "replySlow"
  | "replyStory"
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
  | "hideLog"
  | "playgroundInvalidOne"
  | "playgroundInput"
  | "playgroundInputQuestions"
  | "playgroundInputForm"
  | "playgroundInputApproval"
  | "groupQuestions"
  | "groupForms"
  | "groupApprovals"
  | "groupPlans"
  | "groupAgents"
  | "groupFaults"
  | "groupChat"
  | "searchLabel"
  | "searchEmpty"
  | "groupCount"
  | "unknownStory"
  | "unknownStoryHint"
  | "openFullPage"
  | "copyLink"
  | "linkCopied"
  | "linkFallback"
  | "linkLabel"
  | "compare"
  | "compareOff"
  | "compareWidths"
  | "compareThemes"
  | "docsHeading"
  | "docsGroup"
  | "docsRules"
  | "knobsHeading"
  | "knobsHint"
  | "knobsReset"
  | "knobsEdited"
  | "knobsUnreadable"
  | "knobAsker"
  | "knobAskerName"
  | "askerAgent"
  | "askerMcpClient"
  | "askerMcpServer"
  | "askerAcpAgent"
  | "knobQuestion"
  | "knobQuestionText"
  | "knobHeader"
  | "knobDetail"
  | "knobOptions"
  | "knobMultiSelect"
  | "knobRecommended"
  | "knobNone"
  | "knobRequired"
  | "knobMinLength"
  | "knobMaxLength"
  | "knobMinimum"
  | "knobMaximum"
  | "knobMinSelected"
  | "knobMaxSelected"
  | "knobServer"
  | "knobTool"
  | "knobArguments"
  | "knobDestructive";

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
    replyLost: "Answer taken, reply lost",
    replySlow: "Slow 3 s, then accept",
    replyStory: "The story's own ({reply})",
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
    playgroundInvalid: "{count} problems: the host would refuse this input.",
    playgroundRoot: "(the whole value)",
    playgroundLabel: "Input (JSON)",
    playgroundHint: "The preview shows the slot once the input is valid, and every problem with its path until then; the address carries the input, so you can share it.",
    showLog: "Show log ({count})",
    hideLog: "Hide log",
    playgroundInvalidOne: "1 problem: the host would refuse this input.",
    playgroundInput: "Input",
    playgroundInputQuestions: "ask_user_question arguments",
    playgroundInputForm: "MCP form (message and requestedSchema)",
    playgroundInputApproval: "Tool approval",
    groupQuestions: "Questions",
    groupForms: "Forms",
    groupApprovals: "Approvals",
    groupPlans: "Plans",
    groupAgents: "Agents",
    groupFaults: "Faults",
    groupChat: "Chat",
    searchLabel: "Search stories",
    searchEmpty: "No story matches “{query}”.",
    groupCount: "{group} ({count})",
    unknownStory: "There is no story “{id}”.",
    unknownStoryHint: "These are the stories:",
    openFullPage: "Open full page",
    copyLink: "Copy link",
    linkCopied: "Link copied",
    linkFallback: "The clipboard is not available here: the link is selected, press Ctrl+C (⌘C on a Mac) to copy it.",
    linkLabel: "Link to this story",
    compare: "Side by side",
    compareOff: "Off",
    compareWidths: "Phone and desktop",
    compareThemes: "Light and dark",
    docsHeading: "About this story",
    docsGroup: "Group: {group}",
    docsRules: "Illustrates in docs/protocol.md:",
    knobsHeading: "Controls",
    knobsHint: "Edit the story's content; the address carries your changes, so a link shares exactly what you see.",
    knobsReset: "Reset",
    knobsEdited: "Edited: the preview shows your changes.",
    knobsUnreadable: "The address's edit of this story cannot be read; Reset returns to the story.",
    knobAsker: "Asked by",
    knobAskerName: "Name",
    askerAgent: "This chat's agent",
    askerMcpClient: "An outside agent (/mcp)",
    askerMcpServer: "An MCP server",
    askerAcpAgent: "An ACP agent",
    knobQuestion: "Question {n}",
    knobQuestionText: "Question text",
    knobHeader: "Header",
    knobDetail: "Detail (markdown)",
    knobOptions: "Options, one per line",
    knobMultiSelect: "Multi-select",
    knobRecommended: "Recommended option",
    knobNone: "None",
    knobRequired: "Required",
    knobMinLength: "Minimum length",
    knobMaxLength: "Maximum length",
    knobMinimum: "Minimum",
    knobMaximum: "Maximum",
    knobMinSelected: "Choose at least",
    knobMaxSelected: "Choose at most",
    knobServer: "Server",
    knobTool: "Tool",
    knobArguments: "Arguments (JSON text)",
    knobDestructive: "Destructive (the server's destructiveHint)",
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
    replyLost: "已接受回答，回复丢失",
    replySlow: "慢速：3 秒后接受",
    replyStory: "故事自带（{reply}）",
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
    playgroundInvalid: "{count} 个问题：主机会拒绝这项输入。",
    playgroundRoot: "（整个值）",
    playgroundLabel: "输入（JSON）",
    playgroundHint: "输入有效后预览会显示面板，在此之前列出每个问题及其路径；地址中带有输入内容，便于分享。",
    showLog: "显示日志（{count}）",
    hideLog: "隐藏日志",
    playgroundInvalidOne: "1 个问题：主机会拒绝这项输入。",
    playgroundInput: "输入",
    playgroundInputQuestions: "ask_user_question 参数",
    playgroundInputForm: "MCP 表单（message 与 requestedSchema）",
    playgroundInputApproval: "工具审批",
    groupQuestions: "问题",
    groupForms: "表单",
    groupApprovals: "审批",
    groupPlans: "计划",
    groupAgents: "提问者",
    groupFaults: "故障",
    groupChat: "对话",
    searchLabel: "搜索示例",
    searchEmpty: "没有与“{query}”匹配的示例。",
    groupCount: "{group}（{count}）",
    unknownStory: "没有名为“{id}”的示例。",
    unknownStoryHint: "现有示例如下：",
    openFullPage: "整页打开",
    copyLink: "复制链接",
    linkCopied: "链接已复制",
    linkFallback: "此处无法使用剪贴板：链接已选中，请按 Ctrl+C（Mac 上按 ⌘C）复制。",
    linkLabel: "此示例的链接",
    compare: "并排对比",
    compareOff: "关闭",
    compareWidths: "手机与桌面",
    compareThemes: "浅色与深色",
    docsHeading: "关于此示例",
    docsGroup: "分组：{group}",
    docsRules: "对应 docs/protocol.md 中的规则：",
    knobsHeading: "参数",
    knobsHint: "编辑示例内容；地址会带上你的修改，分享链接即可看到完全相同的画面。",
    knobsReset: "重置",
    knobsEdited: "已修改：预览显示你的修改。",
    knobsUnreadable: "地址中对此故事的修改无法读取；“重置”可回到原故事。",
    knobAsker: "提问者",
    knobAskerName: "名称",
    askerAgent: "本对话的助手",
    askerMcpClient: "外部助手（/mcp）",
    askerMcpServer: "MCP 服务器",
    askerAcpAgent: "ACP 助手",
    knobQuestion: "第 {n} 题",
    knobQuestionText: "问题文字",
    knobHeader: "标题",
    knobDetail: "详情（Markdown）",
    knobOptions: "选项，每行一个",
    knobMultiSelect: "多选",
    knobRecommended: "推荐选项",
    knobNone: "无",
    knobRequired: "必填",
    knobMinLength: "最短长度",
    knobMaxLength: "最长长度",
    knobMinimum: "最小值",
    knobMaximum: "最大值",
    knobMinSelected: "至少选择",
    knobMaxSelected: "至多选择",
    knobServer: "服务器",
    knobTool: "工具",
    knobArguments: "参数（JSON 文本）",
    knobDestructive: "破坏性（服务器的 destructiveHint）",
  },
};
