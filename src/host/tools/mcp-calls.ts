import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolCall, ToolResultBlock } from "../../protocol/schemas";
import type { Logger } from "../log";
import { McpCallError, type McpTools, type OfferedTool } from "../mcp-client/manager";
import type { ToolSpec } from "../models/types";
import { askApproval, UserInteractionError, type UserInteraction } from "../user-interaction";
import { errorOutcome, type ToolOutcome } from "./registry";

/** Every offered MCP tool's name starts so (docs/protocol.md, mcp-tool-call). */
export const MCP_TOOL_PREFIX = "mcp__";

/** The largest image, decoded, a tool result may store; a larger one becomes a labelled block (docs/protocol.md, mcp-media). */
export const MCP_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The tools a human allowed for a chat with `Allow for this chat`. */
export interface GrantBook {
  has(sessionId: string, server: string, tool: string): Promise<boolean>;
  add(sessionId: string, server: string, tool: string): Promise<void>;
}

/** Where images a tool returned are kept, to be served by `GET /api/media/:id`; resolves with the id. */
export type MediaSink = (sessionId: string, bytes: Buffer, mimeType: string) => Promise<string>;

export interface McpCallsOptions {
  mcpTools: Pick<McpTools, "tools" | "call">;
  interaction: Pick<UserInteraction, "ask">;
  grants: GrantBook;
  putMedia: MediaSink;
  log: Logger;
}

export interface McpCallContext {
  sessionId: string;
  signal: AbortSignal;
  /** Told each change of the row's `mcp` data (approval asked, decided), to publish the row. */
  update(mcp: McpToolCall): Promise<void>;
}

/** Runs the model's calls of MCP servers' tools: approval first unless the tool needs none, then the call, its result as transcript data. */
export interface McpCalls {
  /** The offered tools as the model sees them, with their servers' JSON Schemas. */
  specs(): ToolSpec[];
  /** The row's `mcp` data before the call runs: server and tool, from the offer or, for a tool no server offers now, from its name. */
  describe(name: string): McpToolCall;
  run(name: string, args: unknown, context: McpCallContext): Promise<ToolOutcome>;
}

/** `mcp__<server>__<tool>` read back; a name without a second `__` is all server. */
export function splitToolName(name: string): { server: string; tool: string } {
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const at = rest.indexOf("__");
  return at < 0 ? { server: rest, tool: "" } : { server: rest.slice(0, at), tool: rest.slice(at + 2) };
}

function deniedMessage(reason: string | undefined): string {
  return reason ? `the human denied this call: ${reason}` : "the human denied this call";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

type Content = CallToolResult["content"][number];

/** One content block as the transcript keeps it, and as the model reads it. */
async function convertBlock(block: Content, store: (bytes: Buffer, mimeType: string) => Promise<string>): Promise<{ block: ToolResultBlock; text: string }> {
  switch (block.type) {
    case "text":
      return { block: { type: "text", text: block.text }, text: block.text };
    case "image": {
      const size = Buffer.byteLength(block.data, "base64");
      if (size > MCP_IMAGE_MAX_BYTES) {
        const text = `not stored: ${size} bytes is more than the ${MCP_IMAGE_MAX_BYTES}-byte limit`;
        return { block: { type: "other", label: `Image ${block.mimeType}`, text }, text: `[image ${block.mimeType} ${text}]` };
      }
      const mediaId = await store(Buffer.from(block.data, "base64"), block.mimeType);
      return { block: { type: "image", mediaId, mimeType: block.mimeType }, text: `[image ${block.mimeType}]` };
    }
    case "audio":
      return { block: { type: "other", label: `Audio ${block.mimeType}`, text: `${Buffer.byteLength(block.data, "base64")} bytes` }, text: `[audio ${block.mimeType}]` };
    case "resource": {
      const { resource } = block;
      const body = "text" in resource && typeof resource.text === "string" ? resource.text : `${resource.mimeType ?? "binary"} content`;
      return { block: { type: "other", label: `Resource ${resource.uri}`, text: body }, text: `[resource ${resource.uri}]\n${body}` };
    }
    case "resource_link":
      return { block: { type: "other", label: `Resource link ${block.uri}`, text: block.name }, text: `[resource link ${block.uri}]` };
    default: {
      const unknown = block as { type?: unknown };
      const label = typeof unknown.type === "string" ? unknown.type : "content";
      const text = JSON.stringify(block);
      return { block: { type: "other", label, text }, text };
    }
  }
}

export function createMcpCalls(options: McpCallsOptions): McpCalls {
  const { mcpTools, interaction, grants, log } = options;
  const find = (name: string): OfferedTool | undefined => mcpTools.tools().find((tool) => tool.name === name);

  async function convertResult(sessionId: string, result: CallToolResult): Promise<{ content: ToolResultBlock[]; text: string }> {
    const content: ToolResultBlock[] = [];
    const texts: string[] = [];
    for (const block of result.content) {
      const converted = await convertBlock(block, (bytes, mimeType) => options.putMedia(sessionId, bytes, mimeType));
      content.push(converted.block);
      texts.push(converted.text);
    }
    if (result.structuredContent !== undefined && result.content.length === 0) {
      const text = JSON.stringify(result.structuredContent);
      content.push({ type: "other", label: "Structured content", text });
      texts.push(text);
    }
    return { content, text: texts.join("\n") };
  }

  return {
    specs() {
      return mcpTools.tools().map((tool) => ({ name: tool.name, description: tool.description ?? `${tool.tool} from the MCP server ${tool.server}`, parameters: tool.inputSchema }));
    },

    describe(name) {
      const offered = find(name);
      return offered ? { server: offered.server, tool: offered.tool } : splitToolName(name);
    },

    async run(name, args, context) {
      const { sessionId, signal } = context;
      const offered = find(name);
      if (!offered) return errorOutcome({ name: "ToolError", code: "MCP_SERVER_UNAVAILABLE", message: `no ready MCP server offers the tool ${name}` });
      if (!isPlainObject(args)) return errorOutcome({ name: "ToolError", code: "INVALID_ARGS", message: "arguments must be a JSON object" });
      const { server, tool } = offered;
      let mcp: McpToolCall = { server, tool };
      if (offered.readOnly) mcp = { ...mcp, approval: "read-only" };
      else if (offered.autoApproved) mcp = { ...mcp, approval: "auto-approved" };
      else if (await grants.has(sessionId, server, tool)) mcp = { ...mcp, approval: "granted" };
      else {
        await context.update({ ...mcp, approval: "asking" });
        try {
          const decision = await askApproval(interaction, { sessionId, server, tool, arguments: JSON.stringify(args), signal });
          log({ event: "mcp/approval", sessionId, server, tool, decision: decision.kind });
          if (decision.kind === "deny") {
            await context.update({ ...mcp, approval: "denied", ...(decision.reason ? { reason: decision.reason } : {}) });
            return errorOutcome({ name: "ToolError", code: "TOOL_DENIED", message: deniedMessage(decision.reason) });
          }
          if (decision.kind === "allow-for-chat") await grants.add(sessionId, server, tool);
          mcp = { ...mcp, approval: decision.kind === "allow-once" ? "allowed-once" : "allowed-for-chat" };
        } catch (error) {
          if (!(error instanceof UserInteractionError)) throw error;
          if (error.code === "ASK_CANCELLED") {
            await context.update({ ...mcp, approval: "denied" });
            return errorOutcome({ name: "ToolError", code: "TOOL_DENIED", message: "the human dismissed the approval request without allowing this call" });
          }
          return errorOutcome({ name: error.name, code: error.code, message: error.message });
        }
      }
      await context.update(mcp);
      let result: CallToolResult;
      try {
        result = await mcpTools.call(name, args, { sessionId, signal });
      } catch (error) {
        if (!(error instanceof McpCallError)) throw error;
        const code = signal.aborted ? "TOOL_FAILED" : "MCP_SERVER_UNAVAILABLE";
        return errorOutcome({ name: error.name, code, message: error.message });
      }
      const { content, text } = await convertResult(sessionId, result);
      const outcome = { kind: "mcp-result" as const, content };
      if (result.isError === true) {
        return { ...errorOutcome({ name: "McpToolError", code: "MCP_TOOL_ERROR", message: text || `${tool} reported an error` }), outcome };
      }
      return { isError: false, text, outcome };
    },
  };
}
