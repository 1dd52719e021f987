import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolCall, ToolCall, ToolError, ToolResultBlock } from "../../protocol/schemas";
import { APPROVAL_ID, readApprovalAnswer } from "../../protocol/approval";
import { deniedMessage, DISMISSED_APPROVAL_MESSAGE } from "../../protocol/tool-messages";
import type { GivenAnswer } from "../pending/pending-table";
import type { Logger } from "../log";
import { StorageError } from "../storage-error";
import type { Store } from "../store";
import { McpCallError, type McpTools, type OfferedTool } from "./manager";
import { askApproval, UserInteractionError, type UserInteraction } from "../pending/user-interaction";
import { errorOutcome, type AnswerEffect, type ToolContext, type ToolSource } from "../tools/registry";
import { isRecord } from "../../protocol/elicitation-field";

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

/** The grants of a store's sessions. */
export function grantBook(store: Pick<Store, "listGrants" | "addGrant">): GrantBook {
  return {
    has: async (sessionId, server, tool) => (await store.listGrants(sessionId)).some((grant) => grant.server === server && grant.tool === tool),
    add: (sessionId, server, tool) => store.addGrant({ sessionId, server, tool, grantedAt: new Date().toISOString() }),
  };
}

/** Images kept in the store under a new id. */
export function mediaSink(store: Pick<Store, "putMedia">): MediaSink {
  return async (sessionId, data, mimeType) => {
    const id = randomUUID();
    await store.putMedia({ id, sessionId, mimeType, data });
    return id;
  };
}

export interface McpToolSourceOptions {
  mcpTools: Pick<McpTools, "tools" | "call">;
  interaction: Pick<UserInteraction, "ask">;
  grants: GrantBook;
  putMedia: MediaSink;
  log: Logger;
}

/**
 * The MCP servers' tools as one tool source: the model's calls of `mcp__…` tools ask for approval first unless the tool needs none,
 * then run, their results kept as transcript data. The call's approval state goes to its row through the context's `update`.
 */
export type McpToolSource = ToolSource;

/** `mcp__<server>__<tool>` read back; a name without a second `__` is all server. */
export function splitToolName(name: string): { server: string; tool: string } {
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const at = rest.indexOf("__");
  return at < 0 ? { server: rest, tool: "" } : { server: rest.slice(0, at), tool: rest.slice(at + 2) };
}

const deniedError = (reason: string | undefined): ToolError => ({ name: "ToolError", code: "TOOL_DENIED", message: deniedMessage(reason) });
const DISMISSED_ERROR: ToolError = { name: "ToolError", code: "TOOL_DENIED", message: DISMISSED_APPROVAL_MESSAGE };

/**
 * What the human's answer to a call's approval card does to its row as the answer is accepted, so a host that stops before
 * the call goes on leaves the decision behind (docs/protocol.md, respond-durable): a denial or dismissal is the call's
 * outcome, an allow is recorded on the row while the call still runs. Only a row waiting for its approval reads answers so,
 * and one whose call already marked it denied (the call went on before its result was written), which reads a denial.
 */
function settleApproval(call: ToolCall, given: GivenAnswer): AnswerEffect | null {
  const mcp = call.mcp;
  if (mcp?.approval !== "asking" && mcp?.approval !== "denied") return null;
  const { reason: _reason, ...asked } = mcp;
  const effect = approvalEffect(asked, given);
  return mcp.approval === "denied" && effect?.outcome === undefined ? null : effect;
}

function approvalEffect(mcp: McpToolCall, given: GivenAnswer): AnswerEffect | null {
  if (given === "cancelled") return { patch: { mcp: { ...mcp, approval: "denied" } }, outcome: errorOutcome(DISMISSED_ERROR) };
  if (given.answers[0]?.id !== APPROVAL_ID) return null;
  const decision = readApprovalAnswer(given.answers);
  if (decision.kind === "deny") {
    return { patch: { mcp: { ...mcp, approval: "denied", ...(decision.reason ? { reason: decision.reason } : {}) } }, outcome: errorOutcome(deniedError(decision.reason)) };
  }
  return { patch: { mcp: { ...mcp, approval: decision.kind === "allow-once" ? "allowed-once" : "allowed-for-chat" } } };
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

export function createMcpToolSource(options: McpToolSourceOptions): McpToolSource {
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
    list() {
      return mcpTools.tools().map((tool) => ({ name: tool.name, description: tool.description ?? `${tool.tool} from the MCP server ${tool.server}`, parameters: tool.inputSchema }));
    },

    has: (name) => name.startsWith(MCP_TOOL_PREFIX),

    settle: settleApproval,

    describe(name) {
      const offered = find(name);
      return { mcp: offered ? { server: offered.server, tool: offered.tool } : splitToolName(name) };
    },

    async execute(name, args, context: ToolContext) {
      const { sessionId, signal } = context;
      const update = (mcp: McpToolCall) => context.update?.({ mcp }) ?? Promise.resolve();
      const offered = find(name);
      if (!offered) return errorOutcome({ name: "ToolError", code: "MCP_SERVER_UNAVAILABLE", message: `no ready MCP server offers the tool ${name}` });
      if (!isRecord(args)) return errorOutcome({ name: "ToolError", code: "INVALID_ARGS", message: "arguments must be a JSON object" });
      const { server, tool } = offered;
      let mcp: McpToolCall = { server, tool };
      if (offered.readOnly) mcp = { ...mcp, approval: "read-only" };
      else if (offered.autoApproved) mcp = { ...mcp, approval: "auto-approved" };
      else if (await grants.has(sessionId, server, tool)) mcp = { ...mcp, approval: "granted" };
      else {
        await update({ ...mcp, approval: "asking" });
        try {
          const decision = await askApproval(interaction, { sessionId, server, tool, arguments: JSON.stringify(args), ...(offered.destructive ? { destructive: true } : {}), signal, ...(context.messageId ? { messageId: context.messageId } : {}) });
          log({ event: "mcp/approval", sessionId, server, tool, decision: decision.kind });
          if (decision.kind === "deny") {
            await update({ ...mcp, approval: "denied", ...(decision.reason ? { reason: decision.reason } : {}) });
            return errorOutcome(deniedError(decision.reason));
          }
          // The human's allow stands for this call though its grant could not be kept: the chat's next call asks again.
          if (decision.kind === "allow-for-chat") {
            await grants.add(sessionId, server, tool).catch((error: unknown) => log({ event: "mcp/grant-failed", sessionId, server, tool, code: error instanceof StorageError ? error.code : "INTERNAL" }));
          }
          mcp = { ...mcp, approval: decision.kind === "allow-once" ? "allowed-once" : "allowed-for-chat" };
        } catch (error) {
          if (!(error instanceof UserInteractionError)) throw error;
          if (error.code === "ASK_CANCELLED") {
            await update({ ...mcp, approval: "denied" });
            return errorOutcome(DISMISSED_ERROR);
          }
          return errorOutcome({ name: error.name, code: error.code, message: error.message });
        }
      }
      // The call runs as allowed though its row's write failed (storage down): the row is written again later, and a human's
      // allow is never turned into a failed call by the disk.
      await update(mcp).catch((error: unknown) => log({ event: "mcp/approval-write-failed", sessionId, server, tool, code: error instanceof StorageError ? error.code : "INTERNAL" }));
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
