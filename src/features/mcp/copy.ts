import { englishFirst } from "../../i18n/locale";

export type McpKey = "serverFailed";

/** Copy for the notice about MCP servers the host cannot use; its Chinese is in `copy-zh.ts`. */
export const mcpCopy = englishFirst<McpKey>({
  serverFailed: "The MCP server “{name}” is not available, so its tools are not offered: {error}",
});
