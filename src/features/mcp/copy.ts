import type { Catalog } from "../../i18n/locale";

type McpKey = "serverFailed";

/** Copy for the notice about MCP servers the host cannot use. */
export const mcpCopy: Catalog<McpKey> = {
  en: {
    serverFailed: "The MCP server “{name}” is not available, so its tools are not offered: {error}",
  },
  "zh-CN": {
    serverFailed: "MCP 服务器“{name}”不可用，其工具暂不提供：{error}",
  },
};
