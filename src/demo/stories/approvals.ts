import { request, approvalRequest } from "./build";
import { packageManager } from "./samples";
import type { Story } from "../stories";

/** The approvals group's stories, in list order. */
export const APPROVAL_STORIES: Story[] = [
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
      en: "A call that deletes: long arguments wrap, and a hidden character in a path shows as a marker.",
      "zh-CN": "会删除数据的调用：长参数自动换行，路径中的隐藏字符显示为标记。",
    },
    requests: [
      approvalRequest("demo-approval-destructive", {
        server: "filesystem",
        tool: "delete_directory",
        arguments: JSON.stringify({ path: "/home/ada/projects/parley/data\u200b/sessions", recursive: true, force: true, reason: "Free space before the nightly import: every session older than ninety days goes, with its media." }),
      }),
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
