import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../log";
import type { McpServerConfig } from "./config";

/** A tool of a configured MCP server as offered to the model (docs/architecture.md, MCP client). */
export interface OfferedTool {
  /** `mcp__<server>__<tool>`. */
  name: string;
  server: string;
  tool: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** `annotations.readOnlyHint === true`: runs without an approval. */
  readOnly: boolean;
  /** Listed in the server's `autoApprove`: runs without an approval. */
  autoApproved: boolean;
  /** `annotations.destructiveHint === true`: its approval card defaults to Deny. */
  destructive: boolean;
}

const TOOL_NAME = /^[A-Za-z0-9_-]+$/;
const MAX_TOOL_NAME_CHARS = 64;
const MAX_TOOL_PAGES = 50;

/** The offered name of a server's tool: `mcp__<server>__<tool>`. */
export function offeredToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** A server's tool as offered, or null (logged) when its name cannot be offered. */
function toOffered(server: McpServerConfig, tool: Tool, log: Logger): OfferedTool | null {
  const name = offeredToolName(server.name, tool.name);
  if (!TOOL_NAME.test(tool.name) || name.length > MAX_TOOL_NAME_CHARS) {
    log({ event: "mcp/tool-skipped", server: server.name, tool: tool.name.slice(0, 100), reason: `an offered name is ${MAX_TOOL_NAME_CHARS} letters, digits, "_" or "-" at most` });
    return null;
  }
  return {
    name,
    server: server.name,
    tool: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    readOnly: tool.annotations?.readOnlyHint === true,
    autoApproved: server.autoApprove.includes(tool.name),
    destructive: tool.annotations?.destructiveHint === true,
  };
}

/** Lists a connected server's tools (`tools/list`, page by page up to a bound) as the tools offered to the model. */
export async function listOfferedTools(server: McpServerConfig, client: Client, log: Logger): Promise<OfferedTool[]> {
  const tools: OfferedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const tool of result.tools) {
      const item = toOffered(server, tool, log);
      if (item) tools.push(item);
    }
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}
