import { request, formRequest } from "./build";
import { packageManager, projectName } from "./samples";
import type { QuestionItem } from "../../protocol/schemas";
import type { SlotStory } from "../stories";

/** A batch as Qwen Code asks it: ids are the question's index, options a label with a description, one multi-select. */
const qwenQuestions: QuestionItem[] = [
  {
    id: "0",
    header: "Test runner",
    question: "Which test runner should the new package use?",
    options: [
      { label: "Vitest", description: "Same config as Vite; the rest of the repo uses it." },
      { label: "Jest", description: "The most plugins, but needs a TypeScript transform." },
      { label: "node:test", description: "Built into Node; no dependency at all." },
    ],
  },
  {
    id: "1",
    header: "Coverage",
    question: "Which reports should the coverage step write?",
    multiSelect: true,
    options: [
      { label: "text", description: "A table in the CI log." },
      { label: "lcov", description: "For the coverage service." },
      { label: "html", description: "A browsable site in coverage/." },
    ],
  },
];

/** The agents group's stories, in list order. */
export const AGENT_STORIES: SlotStory[] = [
  {
    id: "agent-outside",
    group: "agents",
    rules: ["mux-downlink"],
    title: { en: "Asked by an outside agent", "zh-CN": "由外部助手提问" },
    description: {
      en: "An agent connected through /mcp asks: the header names it (Asked by …).",
      "zh-CN": "通过 /mcp 连接的助手提问：标题中会写明提问者。",
    },
    requests: [request("demo-agent-outside", [packageManager, projectName], { kind: "mcp-client", name: "Claude Code" })],
    reply: "accept",
  },
  {
    id: "agent-mcp-server",
    group: "agents",
    rules: ["elicitation-mapping", "mux-downlink"],
    title: { en: "Asked by an MCP server", "zh-CN": "由 MCP 服务器提问" },
    description: {
      en: "A tool's MCP server asks in the middle of a call: the header says Asked by the … server.",
      "zh-CN": "工具的 MCP 服务器在调用过程中提问：标题写明由哪个服务器提问。",
    },
    requests: [
      formRequest("demo-agent-mcp-server", "deploy", "The staging database has 3 pending migrations.", {
        type: "object",
        properties: { migrate: { type: "boolean", title: "Run them before deploying?" } },
        required: ["migrate"],
      }),
    ],
    reply: "accept",
  },
  {
    id: "agent-acp",
    group: "agents",
    rules: ["acp-qwen-question", "mux-downlink"],
    title: { en: "Asked by an ACP agent (Qwen Code)", "zh-CN": "由 ACP 助手提问（Qwen Code）" },
    description: {
      en: "Qwen Code's ask_user_question, sent over ACP as a permission request, arrives as a plain question batch, never an approval: the header names the agent by its configured title (Asked by Qwen Code).",
      "zh-CN": "Qwen Code 的 ask_user_question 通过 ACP 以权限请求发来，显示为普通的问题批次而非审批：标题以配置的名称写明提问者（由 Qwen Code 提问）。",
    },
    requests: [request("demo-agent-acp", qwenQuestions, { kind: "acp-agent", name: "qwen", title: "Qwen Code" })],
    reply: "accept",
  },
];
