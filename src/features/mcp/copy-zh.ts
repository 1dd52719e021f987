import type { McpKey } from "./copy";

/** The Chinese of the notice about MCP servers (`mcpCopy`), which `src/app/zh-CN.ts` fills in when the locale loads. */
export const mcpCopyZh: Record<McpKey, string> = {
  serverFailed: "MCP 服务器“{name}”不可用，其工具暂不提供：{error}",
};
