import type { ChatStory } from "../stories";
import { AGENTS, DEMO_MODEL_HEALTH, LISTED_CHATS, qwenChat, REAL_MODEL_HEALTH, STOPPED_HOST_CHAT, uploadEdit, uploadPlan, uploadTests, uploadThought } from "./chat-samples";

const OPEN_CHAT = "chat-dark-mode";

/** The chat group's stories, in list order: the screen around the composer slot, each over the app's own components. */
export const CHAT_STORIES: ChatStory[] = [
  {
    id: "first-screen-demo",
    settled: [{ role: "button", name: "/tool of the notes server" }],
    group: "chat",
    rules: ["mcp-health"],
    title: { en: "First screen: the demo model", "zh-CN": "首屏：演示模型" },
    description: {
      en: "An empty chat on a host that runs the scripted model: it says so, offers /ask a sample batch, /plan a sample plan and /tool of the ready MCP server, and links to /demo.",
      "zh-CN": "运行脚本模型的主机上的空对话：说明这一点，提供 /ask 示例问题、/plan 示例计划和就绪 MCP 服务器的 /tool，并链接到 /demo。",
    },
    scene: { health: DEMO_MODEL_HEALTH, chats: [], open: null },
  },
  {
    id: "first-screen-real",
    settled: [{ text: "Parley's assistant stops to ask you when it needs a decision" }],
    group: "chat",
    rules: ["mcp-health"],
    title: { en: "First screen: a real model", "zh-CN": "首屏：真实模型" },
    description: {
      en: "An empty chat on a host with a real model: one line on what Parley does, no starters.",
      "zh-CN": "使用真实模型的主机上的空对话：一句话说明 Parley 做什么，没有快捷入口。",
    },
    scene: { health: REAL_MODEL_HEALTH, chats: [], open: null },
  },
  {
    id: "command-menu",
    settled: [{ command: "/echo" }],
    group: "chat",
    rules: ["mcp-health"],
    title: { en: "/ menu: the demo model's commands", "zh-CN": "/ 菜单：演示模型的命令" },
    description: {
      en: "A / typed in the composer: /ask, /plan, /tool (an MCP server is ready) and /echo, each with its arguments and what it does, and how to use the menu by keyboard.",
      "zh-CN": "在输入框中输入 /：列出 /ask、/plan、/tool（有就绪的 MCP 服务器）和 /echo，各带参数和用途，以及键盘用法。",
    },
    scene: { health: DEMO_MODEL_HEALTH, chats: [], open: null, draft: "/" },
  },
  {
    id: "command-menu-filtered",
    settled: [{ command: "/plan" }],
    group: "chat",
    rules: ["mcp-health"],
    title: { en: "/ menu: completing a command", "zh-CN": "/ 菜单：补全命令" },
    description: {
      en: "/p typed: the menu keeps only the commands that start with it; Enter or Tab completes /plan.",
      "zh-CN": "输入 /p：菜单只保留以它开头的命令；按 Enter 或 Tab 补全为 /plan。",
    },
    scene: { health: DEMO_MODEL_HEALTH, chats: [], open: null, draft: "/p" },
  },
  {
    id: "command-menu-agent",
    settled: [{ command: "/review" }, { role: "combobox", name: "Mode" }],
    group: "chat",
    rules: ["acp-rows"],
    title: { en: "/ menu: an ACP agent's own commands", "zh-CN": "/ 菜单：ACP 助手自己的命令" },
    description: {
      en: "A / typed in a chat Qwen Code runs: the agent's own commands as it describes them, none of the demo model's.",
      "zh-CN": "在 Qwen Code 运行的对话中输入 /：列出该助手按自己描述的命令，不含演示模型的命令。",
    },
    scene: { health: DEMO_MODEL_HEALTH, chats: [qwenChat([])], open: "chat-upload", draft: "/", agents: AGENTS },
  },
  {
    id: "sidebar-groups",
    settled: [{ role: "heading", name: "Waiting for you", hidden: true }, { role: "heading", name: "Earlier", hidden: true }, { text: "Done. The settings page now has", start: true }],
    group: "chat",
    rules: ["sessions-page", "mux-replay"],
    title: { en: "Chat list: waiting, Today, Yesterday, earlier", "zh-CN": "对话列表：等待、今天、昨天、更早" },
    description: {
      en: "Chats waiting for an answer pinned on top with their badge (a question, a plan), then Today, Yesterday and Earlier, an ACP agent's and an outside agent's chat badged. At Phone 360 the list is behind the Sessions button, which counts the waiting chats other than the open one.",
      "zh-CN": "等待回答的对话置顶并带标记（问题、计划），其后是今天、昨天和更早；ACP 助手和外部助手的对话带标记。在手机 360 宽度下，列表收在“会话”按钮后，按钮上显示除当前对话外等待回答的对话数。",
    },
    scene: { health: REAL_MODEL_HEALTH, chats: LISTED_CHATS, open: OPEN_CHAT, agents: AGENTS },
  },
  {
    id: "sidebar-row-menu",
    settled: [{ role: "menu", hidden: true }, { text: "Done. The settings page now has", start: true }],
    group: "chat",
    rules: ["sessions-rename"],
    title: { en: "Chat list: a row's … menu", "zh-CN": "对话列表：行的 … 菜单" },
    description: {
      en: "A chat's … button open: Rename and Delete, moved through with the arrow keys; Escape closes it. On a phone the list is open as a drawer.",
      "zh-CN": "打开某个对话的 … 按钮：重命名和删除，可用方向键切换；按 Esc 关闭。在手机上，列表以抽屉形式打开。",
    },
    scene: { health: REAL_MODEL_HEALTH, chats: LISTED_CHATS, open: OPEN_CHAT, agents: AGENTS, rowMenu: OPEN_CHAT, drawer: "open" },
  },
  {
    id: "phone-drawer",
    settled: [{ role: "button", name: "Close the chat list", hidden: true }, { role: "heading", name: "Waiting for you", hidden: true }, { text: "Done. The settings page now has", start: true }],
    group: "chat",
    rules: ["sessions-page"],
    title: { en: "Phone: the chat list as a drawer", "zh-CN": "手机：抽屉式对话列表" },
    description: {
      en: "At phone width (Width: Phone 360) the chat list opens over the conversation with a backdrop and a Close button; the backdrop, Close and Escape shut it.",
      "zh-CN": "手机宽度（宽度：手机 360）下，对话列表覆盖在对话上方，带遮罩和关闭按钮；点遮罩、关闭或按 Esc 都会收起。",
    },
    scene: { health: REAL_MODEL_HEALTH, chats: LISTED_CHATS, open: OPEN_CHAT, agents: AGENTS, drawer: "open" },
  },
  {
    id: "acp-tool-diff",
    settled: [{ role: "region", name: "Changes to /srv/code/parley/src/client/upload.ts" }, { role: "combobox", name: "Mode" }],
    group: "chat",
    rules: ["acp-rows"],
    title: { en: "ACP: a tool call with a diff", "zh-CN": "ACP：带差异的工具调用" },
    description: {
      en: "Qwen Code's edit of a file: its title, kind and status, the file and line, and the change as removed and added lines.",
      "zh-CN": "Qwen Code 修改文件：标题、类型和状态、文件与行号，以及以删除行和新增行显示的改动。",
    },
    scene: {
      health: REAL_MODEL_HEALTH,
      chats: [qwenChat([{ role: "tool", acp: uploadEdit }, { role: "assistant", text: "The upload now waits for the socket and sends once more; the host keeps one copy." }])],
      open: "chat-upload",
      agents: AGENTS,
    },
  },
  {
    id: "acp-terminal",
    settled: [{ role: "region", name: "Output" }, { role: "combobox", name: "Mode" }],
    group: "chat",
    rules: ["acp-rows"],
    title: { en: "ACP: a command's coloured output", "zh-CN": "ACP：命令的彩色输出" },
    description: {
      en: "Qwen Code runs the tests: the execute call stays open while it runs, its terminal output in its ANSI colours, never as markup.",
      "zh-CN": "Qwen Code 运行测试：执行中的调用保持展开，终端输出按 ANSI 颜色显示，绝不作为标记渲染。",
    },
    scene: { health: REAL_MODEL_HEALTH, chats: [qwenChat([{ role: "tool", acp: uploadEdit }, { role: "tool", acp: uploadTests }], "running")], open: "chat-upload", agents: AGENTS },
  },
  {
    id: "acp-plan",
    settled: [{ role: "region", name: "Plan" }, { role: "combobox", name: "Mode" }],
    group: "chat",
    rules: ["acp-rows"],
    title: { en: "ACP: the agent's plan", "zh-CN": "ACP：助手的计划" },
    description: {
      en: "Qwen Code's plan as a checklist, each step done, in progress or pending; the agent updates it in place.",
      "zh-CN": "Qwen Code 的计划以清单显示，每一步标明已完成、进行中或待办；助手会原地更新它。",
    },
    scene: { health: REAL_MODEL_HEALTH, chats: [qwenChat([{ role: "tool", acp: uploadThought }, { role: "tool", acp: uploadPlan }], "running")], open: "chat-upload", agents: AGENTS },
  },
  {
    id: "acp-thought",
    settled: [{ text: "Thinking", exact: true }, { role: "combobox", name: "Mode" }],
    group: "chat",
    rules: ["acp-rows"],
    title: { en: "ACP: a thought", "zh-CN": "ACP：思考过程" },
    description: {
      en: "What Qwen Code thought before it answered, folded under Thinking; it opens on a click.",
      "zh-CN": "Qwen Code 回答前的思考，折叠在“思考”下；点击即可展开。",
    },
    scene: {
      health: REAL_MODEL_HEALTH,
      chats: [qwenChat([{ role: "tool", acp: uploadThought }, { role: "assistant", text: "I'll reproduce it first: a test whose socket drops halfway through an upload." }])],
      open: "chat-upload",
      agents: AGENTS,
    },
  },
  {
    id: "acp-mode",
    settled: [{ text: "I'll start by reading" }, { role: "combobox", name: "Mode" }],
    group: "chat",
    rules: ["acp-rows", "acp-agents"],
    title: { en: "ACP: the agent's mode in the header", "zh-CN": "ACP：标题栏中的助手模式" },
    description: {
      en: "A chat Qwen Code runs: its mode is a select in the chat header (Default asks before every edit); the session row says where it runs, its commands and its context use.",
      "zh-CN": "Qwen Code 运行的对话：模式是对话标题栏中的下拉框（“Default”在每次修改前都会询问）；会话行说明运行位置、命令和上下文用量。",
    },
    scene: { health: REAL_MODEL_HEALTH, chats: [qwenChat([{ role: "assistant", text: "I'll start by reading `src/client/upload.ts` and its test." }])], open: "chat-upload", agents: AGENTS },
  },
  {
    id: "host-stopped-rows",
    settled: [{ text: "Denied; the host stopped before the agent read it." }, { text: "Interrupted: the host running this call stopped before it finished." }],
    group: "chat",
    rules: ["tool-interrupted", "respond-durable"],
    title: { en: "Tool rows a stopped host left", "zh-CN": "主机停止后留下的工具行" },
    description: {
      en: "After a restart or another host's adoption, each unfinished call says how far it got: answered before the agent read it, denied, allowed but maybe not run, or never answered.",
      "zh-CN": "重启或由其他主机接管后，每个未完成的调用都说明进行到哪一步：已回答但助手尚未读取、已拒绝、已允许但可能未运行，或从未得到回答。",
    },
    scene: { health: REAL_MODEL_HEALTH, chats: [STOPPED_HOST_CHAT], open: "chat-notes" },
  },
];
