import type { ToolCall } from "../../protocol/schemas";
import type { HistoryItem } from "../models/types";
import type { StoredMessage } from "../store";
import { formatToolErrorText, type AnswerEffect } from "../tools/registry";
import { ASK_ABORTED_ERROR, deniedMessage, TOOL_INTERRUPTED_ERROR } from "../../protocol/tool-messages";

/** The text a model sees for a tool row that never finished while it waited for the human: an error naming ASK_ABORTED. */
export const STOPPED_TOOL_TEXT = formatToolErrorText(ASK_ABORTED_ERROR);

/** Approval states after which an MCP call runs: the human (or a rule) let it. */
const LET_RUN = new Set(["allowed-once", "allowed-for-chat", "granted", "read-only", "auto-approved"]);

/**
 * A tool row that never finished, as it ends once its host is gone (docs/protocol.md, tool-interrupted): a call the human
 * had allowed reads TOOL_INTERRUPTED, one they had denied TOOL_DENIED, and any other (its question never answered) ASK_ABORTED.
 */
export function stoppedTool(tool: ToolCall): ToolCall {
  const approval = tool.mcp?.approval;
  const error =
    approval === "denied"
      ? { name: "ToolError", code: "TOOL_DENIED", message: deniedMessage(tool.mcp?.reason) }
      : approval !== undefined && LET_RUN.has(approval)
        ? TOOL_INTERRUPTED_ERROR
        : ASK_ABORTED_ERROR;
  return { ...tool, status: "stopped", result: formatToolErrorText(error), error };
}

/**
 * A tool row with an accepted answer written in (docs/protocol.md, respond-durable): the row data the answer gives (an
 * approval's decision) and, when the answer is the call's whole result, that outcome, marked interrupted until the agent
 * reads it. A row still marked so once its host is gone reads "answered; the host stopped before the agent read it", and
 * the model reads the answer in its history. A row the answer leaves running stays as it was otherwise.
 */
export function answeredRow(row: StoredMessage, effect: AnswerEffect): StoredMessage {
  const patched: ToolCall = { ...row.tool!, ...effect.patch };
  const outcome = effect.outcome;
  if (!outcome) return { ...row, tool: patched };
  const tool: ToolCall = { ...patched, status: outcome.isError ? "error" : "ok", result: outcome.text, ...(outcome.error ? { error: outcome.error } : {}), ...(outcome.outcome ? { outcome: outcome.outcome } : {}) };
  return { ...row, tool, interrupted: true };
}

/**
 * Rebuilds the conversation for the model from the transcript: each model step becomes one
 * assistant item carrying the calls of its tool rows, followed by their results.
 */
export function buildHistory(messages: readonly StoredMessage[]): HistoryItem[] {
  const history: HistoryItem[] = [];
  let current: { step: string | undefined; item: Extract<HistoryItem, { role: "assistant" }> } | null = null;

  for (const message of messages) {
    if (message.role === "user") {
      current = null;
      history.push({ role: "user", text: message.text ?? "" });
      continue;
    }
    if (message.role === "assistant") {
      const item = { role: "assistant" as const, text: message.text ?? "", toolCalls: [] };
      current = { step: message.step, item };
      history.push(item);
      continue;
    }
    const tool = message.tool;
    if (!tool) continue;
    if (!current || current.step === undefined || current.step !== message.step) {
      const item = { role: "assistant" as const, text: "", toolCalls: [] };
      current = { step: message.step, item };
      history.push(item);
    }
    current.item.toolCalls.push({ callId: tool.callId, name: tool.name, arguments: message.rawArgs ?? JSON.stringify(tool.args) });
    history.push({ role: "tool", callId: tool.callId, name: tool.name, ...toolResult(message) });
  }
  return history;
}

function toolResult(message: StoredMessage): { text: string; isError: boolean } {
  const tool = message.tool!;
  switch (tool.status) {
    case "ok":
      return { text: tool.result ?? "", isError: false };
    case "error":
      return { text: tool.result ?? formatToolErrorText(tool.error ?? { name: "ToolError", code: "TOOL_FAILED", message: "the tool failed" }), isError: true };
    case "stopped":
    case "running":
      return { text: tool.result ?? stoppedTool(tool).result!, isError: true };
    default:
      return tool.status satisfies never;
  }
}
