import { request, formRequest } from "./build";
import { packageManager, recommendedDatabase, projectName } from "./samples";
import type { Story } from "../stories";

/** The agents group's stories, in list order. */
export const AGENT_STORIES: Story[] = [
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
    rules: ["mux-downlink"],
    title: { en: "Asked by an ACP agent", "zh-CN": "由 ACP 助手提问" },
    description: {
      en: "An agent the host runs over ACP asks: the header shows the title it is configured with.",
      "zh-CN": "主机通过 ACP 运行的助手提问：标题显示为其配置的名称。",
    },
    requests: [request("demo-agent-acp", [recommendedDatabase], { kind: "acp-agent", name: "qwen", title: "Qwen Code" })],
    reply: "accept",
  },
];
