import { request, approvalRequest, acpApprovalRequest } from "./build";
import { packageManager } from "./samples";
import type { SlotStory } from "../stories";

/** The file an ACP agent's edit changes: a cap on the sessions a list page returns. */
const sessionsBefore = [
  'import { openStore } from "./sqlite";',
  "",
  "export async function listSessions(limit: number) {",
  "  const store = await openStore();",
  "  return store.sessions.list({ limit });",
  "}",
  "",
].join("\n");
const sessionsAfter = [
  'import { openStore } from "./sqlite";',
  "",
  "/** A page never holds more than this many sessions. */",
  "export const MAX_PAGE = 100;",
  "",
  "export async function listSessions(limit: number) {",
  "  const store = await openStore();",
  "  return store.sessions.list({ limit: Math.min(limit, MAX_PAGE) });",
  "}",
  "",
].join("\n");

/** The approvals group's stories, in list order. */
export const APPROVAL_STORIES: SlotStory[] = [
  {
    id: "approval",
    group: "approvals",
    rules: ["approval-request", "mcp-approval"],
    title: { en: "Tool approval", "zh-CN": "工具调用审批" },
    description: {
      en: "An MCP server's tool wants to run: its full arguments, an optional reason, Allow once, Allow for this chat, Deny.",
      "zh-CN": "MCP 服务器的工具请求运行：完整参数、可选理由，以及“允许一次”“在本对话中允许”“拒绝”。",
    },
    requests: [approvalRequest("demo-approval", { server: "github", tool: "create_issue", arguments: JSON.stringify({ repo: "parley/parley", title: "Demo: stories for every slot state", labels: ["design"] }) })],
    reply: "accept",
  },
  {
    id: "approval-reason",
    group: "approvals",
    rules: ["approval-request", "mcp-approval"],
    title: { en: "Tool approval with a reason", "zh-CN": "附理由的工具审批" },
    description: {
      en: "A reason typed: Deny sends it to the model with TOOL_DENIED; an Allow ignores it.",
      "zh-CN": "已填写理由：“拒绝”会把理由随 TOOL_DENIED 发给模型；允许时忽略理由。",
    },
    requests: [approvalRequest("demo-approval-reason", { server: "github", tool: "merge_pull_request", arguments: JSON.stringify({ repo: "parley/parley", number: 412, method: "squash" }) })],
    reply: "accept",
    reason: "Wait for the second review first.",
  },
  {
    id: "approval-destructive",
    group: "approvals",
    rules: ["approval-request", "mcp-approval"],
    title: { en: "Destructive tool call", "zh-CN": "破坏性的工具调用" },
    description: {
      en: "A tool its server marks destructive (destructiveHint): a Destructive badge and warning, Deny as the default, last button; long arguments wrap, and a hidden character in a path shows as a marker.",
      "zh-CN": "服务器标记为破坏性（destructiveHint）的工具：显示“破坏性操作”标记和警告，“拒绝”为默认按钮并排在最后；长参数自动换行，路径中的隐藏字符显示为标记。",
    },
    requests: [
      approvalRequest("demo-approval-destructive", {
        server: "filesystem",
        tool: "delete_directory",
        arguments: JSON.stringify({ path: "/home/ada/projects/parley/data\u200b/sessions", recursive: true, force: true, reason: "Free space before the nightly import: every session older than ninety days goes, with its media." }),
        destructive: true,
      }),
    ],
    reply: "accept",
  },
  {
    id: "approval-acp",
    group: "approvals",
    rules: ["acp-permission", "approval-request"],
    title: { en: "An ACP agent's permission", "zh-CN": "ACP 助手的权限请求" },
    description: {
      en: "An agent run over ACP asks to edit a file: the tool call's title and kind, the diff, where it acts, the raw input folded, and the agent's own options by name; a reject option asks for a reason first.",
      "zh-CN": "通过 ACP 运行的助手请求编辑文件：显示工具调用的标题和类型、改动、作用位置、折叠的原始输入，以及助手自己命名的选项；拒绝类选项会先询问理由。",
    },
    requests: [
      acpApprovalRequest(
        "demo-approval-acp",
        { name: "qwen", title: "Qwen Code" },
        {
          tool: "Edit src/store/sessions.ts",
          arguments: JSON.stringify({ file_path: "/srv/code/app/src/store/sessions.ts", old_string: sessionsBefore, new_string: sessionsAfter }, null, 2),
          choices: ["Allow", "Always Allow", "Reject"],
          choiceKinds: ["allow_once", "allow_always", "reject_once"],
          toolCall: {
            toolCallId: "edit-sessions-1",
            title: "Edit src/store/sessions.ts",
            kind: "edit",
            locations: [{ path: "/srv/code/app/src/store/sessions.ts", line: 3 }],
            content: [{ type: "diff", path: "/srv/code/app/src/store/sessions.ts", oldText: sessionsBefore, newText: sessionsAfter }],
          },
        },
      ),
    ],
    reply: "accept",
  },
  {
    id: "approval-acp-execute",
    group: "approvals",
    rules: ["acp-permission", "approval-request"],
    title: { en: "An ACP agent's command", "zh-CN": "ACP 助手要执行的命令" },
    description: {
      en: "An agent run over ACP asks to execute a command: the command in full as it will run, where it runs, the raw input folded, and the agent's own options by name.",
      "zh-CN": "通过 ACP 运行的助手请求执行命令：完整显示将要运行的命令、运行位置、折叠的原始输入，以及助手自己命名的选项。",
    },
    requests: [
      acpApprovalRequest(
        "demo-approval-acp-execute",
        { name: "qwen", title: "Qwen Code" },
        {
          tool: "npm test -- --run src/store",
          arguments: JSON.stringify({ command: "npm test -- --run src/store", cwd: "/srv/code/app", description: "Run the store's tests" }, null, 2),
          choices: ["Allow", "Always Allow", "Reject"],
          choiceKinds: ["allow_once", "allow_always", "reject_once"],
          toolCall: {
            toolCallId: "execute-tests-1",
            title: "npm test -- --run src/store",
            kind: "execute",
            locations: [{ path: "/srv/code/app" }],
            content: [{ type: "text", text: "npm test -- --run src/store" }],
          },
        },
      ),
    ],
    reply: "accept",
  },
  {
    id: "approval-no-arguments",
    group: "approvals",
    rules: ["approval-request"],
    title: { en: "Tool approval without arguments", "zh-CN": "无参数的工具审批" },
    description: { en: "A call that takes no arguments says so instead of showing {}.", "zh-CN": "不带参数的调用会直接说明，而不显示 {}。" },
    requests: [approvalRequest("demo-approval-no-arguments", { server: "deploy", tool: "restart_staging", arguments: "{}" })],
    reply: "accept",
  },
  {
    id: "approval-then-question",
    group: "approvals",
    rules: ["approval-request", "mux-replay"],
    title: { en: "Approval, then a question", "zh-CN": "先审批，再提问" },
    description: {
      en: "A queue mixing an approval and a question: the oldest shows first, the question follows once the approval is answered.",
      "zh-CN": "审批与问题混合排队：最早的先显示，审批处理后接着显示问题。",
    },
    requests: [
      approvalRequest("demo-mixed-queue-approval", { server: "github", tool: "create_issue", arguments: JSON.stringify({ repo: "parley/parley", title: "Flaky test" }) }),
      request("demo-mixed-queue-question", [packageManager]),
    ],
    reply: "accept",
  },
];
