import { z } from "zod/mini";
import { AcpRowData } from "./acp-data";
import { AnswerItem } from "./questions";

export { TOOL_NAMES } from "./tool-names";

// A `tool` transcript row's call (docs/protocol.md, Tools the agent calls): its status, error, outcome and the data of MCP and ACP rows.

export const ToolStatus = z.enum(["running", "ok", "error", "stopped"]);
export type ToolStatus = z.infer<typeof ToolStatus>;

/** Every code a tool error can carry (docs/protocol.md, Tools the agent calls); the transcript reads outcomes from these, never from text. */
export const ToolErrorCode = z.enum([
  "INVALID_ARGS",
  "ASK_CANCELLED",
  "ASK_ABORTED",
  "ASK_MISSING_SESSION",
  "EMPTY_QUESTIONS",
  "INVALID_QUESTIONS",
  "BAD_INTENT",
  "TOO_MANY_PENDING",
  "UNKNOWN_TOOL",
  "UNKNOWN_TICKET",
  "TOOL_FAILED",
  "TOOL_DENIED",
  "TOOL_INTERRUPTED",
  "MCP_TOOL_ERROR",
  "MCP_SERVER_UNAVAILABLE",
  "HOST_UNREACHABLE",
  "STORAGE_FULL",
  "STORAGE_READONLY",
  "STORAGE_BUSY",
  "STORAGE_FAILED",
  "INTERNAL",
]);
export type ToolErrorCode = z.infer<typeof ToolErrorCode>;

/** A structured tool error as the model and the transcript see it; `code` is one of ToolErrorCode for Parley's own tools. */
export const ToolError = z.object({ name: z.string(), code: z.string(), message: z.string() });
export type ToolError = z.infer<typeof ToolError>;

/** One piece of an MCP tool's result as the transcript shows it: text, an image the host stores (`GET /api/media/:id`), or any other content as a labelled block (docs/protocol.md, mcp-tool-row). */
export const ToolResultBlock = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("image"), mediaId: z.string(), mimeType: z.string() }),
  z.object({ type: z.literal("other"), label: z.string(), text: z.string() }),
]);
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;

/** Why an MCP call ran or did not: asked and what the human said, or why it did not need asking. */
export const ToolApprovalState = z.enum(["asking", "allowed-once", "allowed-for-chat", "denied", "read-only", "auto-approved", "granted"]);
export type ToolApprovalState = z.infer<typeof ToolApprovalState>;

/** Set on the tool row of a call to an MCP server's tool (`mcp__<server>__<tool>`). */
export const McpToolCall = z.object({ server: z.string(), tool: z.string(), approval: z.optional(ToolApprovalState), reason: z.optional(z.string()) });
export type McpToolCall = z.infer<typeof McpToolCall>;

/** What a finished call of one of Parley's tools came to, as data for the transcript (docs/protocol.md, tool-outcome). */
export const ToolRowOutcome = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("answered"), answers: z.array(AnswerItem) }),
  z.object({ kind: z.literal("approved"), note: z.optional(z.string()) }),
  z.object({ kind: z.literal("revise"), feedback: z.string() }),
  /** An MCP tool's result content (also when the server flagged it isError). */
  z.object({ kind: z.literal("mcp-result"), content: z.array(ToolResultBlock) }),
]);
export type ToolRowOutcome = z.infer<typeof ToolRowOutcome>;

/** The tool call carried by a `tool` transcript row. */
export const ToolCall = z.object({
  callId: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  status: ToolStatus,
  result: z.optional(z.string()),
  error: z.optional(ToolError),
  /** Set on a finished call of ask_user_question or present_plan: what the human decided, as data. */
  outcome: z.optional(ToolRowOutcome),
  /** Set on a call of an MCP server's tool: which server and tool, and how its approval went. */
  mcp: z.optional(McpToolCall),
  /** Set on a row an ACP agent's session update made (`name` `acp/tool`, `acp/thought`, `acp/plan` or `acp/session`). */
  acp: z.optional(AcpRowData),
});
export type ToolCall = z.infer<typeof ToolCall>;
