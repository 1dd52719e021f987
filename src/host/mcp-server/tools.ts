import { z } from "zod";
import type { ToolError } from "../../protocol/schemas";
import { toolParameters, type ToolOutcome, type ToolRegistry } from "../tools/registry";

/** The MCP-only tool that waits again on a question a `waiting` result left pending. */
export const WAIT_TOOL_NAME = "ask_user_question_wait";

export const WaitArgs = z.strictObject({
  ticket: z.string().min(1).max(200).describe("The ticket from a waiting result of ask_user_question or present_plan."),
});

export const WAIT_TOOL_DESCRIPTION = [
  "Keep waiting for the human's answer to a question that ask_user_question or present_plan left pending.",
  'Call it with the ticket of a {"status":"waiting","ticket":"..."} result; it returns the answer exactly as the original tool would,',
  "or another waiting result when the human still has not answered.",
].join(" ");

/** A tool as `tools/list` describes it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
}

/** A `tools/call` result. */
export interface McpToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  isError?: boolean;
}

/** The registry's tools as MCP lists them: the very name, description and schema the built-in agent gets; plus the wait tool when tickets are on. */
export function mcpToolList(tools: ToolRegistry, options: { waitTool: boolean }): McpTool[] {
  const listed: McpTool[] = tools.list().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: { ...tool.parameters, type: "object" } }));
  if (options.waitTool) listed.push({ name: WAIT_TOOL_NAME, description: WAIT_TOOL_DESCRIPTION, inputSchema: { ...toolParameters(WaitArgs), type: "object" } });
  return listed;
}

/** A tool outcome as an MCP result: the same text; an error sets `isError`. */
export function toMcpResult(outcome: Pick<ToolOutcome, "isError" | "text">): McpToolResult {
  return outcome.isError ? { content: [{ type: "text", text: outcome.text }], isError: true } : { content: [{ type: "text", text: outcome.text }] };
}

/** The first line is the JSON a program reads; the second tells the model what to do with it. */
export function waitingText(ticket: string): string {
  return [
    JSON.stringify({ status: "waiting", ticket }),
    `The human has not answered yet; the question stays on their screen. Call ${WAIT_TOOL_NAME} with ${JSON.stringify({ ticket })} to keep waiting for the answer. Do not ask again.`,
  ].join("\n");
}

export function unknownTicketError(ticket: string): ToolError {
  return {
    name: "ToolError",
    code: "UNKNOWN_TICKET",
    message: `no question in this session is waiting under ticket "${ticket}" (its answer was already returned, it was aborted, or the ticket was never issued here)`,
  };
}
