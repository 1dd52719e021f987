import type { ToolCall } from "../../protocol/schemas";
import type { HistoryItem } from "../models/types";
import type { StoredMessage } from "../store";
import { formatToolErrorText, type ToolOutcome } from "../tools/registry";
import { ASK_ABORTED_ERROR } from "../../protocol/tool-messages";

/** The text a model sees for a tool row that never finished: an error naming ASK_ABORTED. */
export const STOPPED_TOOL_TEXT = formatToolErrorText(ASK_ABORTED_ERROR);

/**
 * A tool row whose question was answered: the answer's outcome as its result, marked interrupted until the agent reads it
 * (docs/protocol.md, respond-durable); a row still marked so once its host is gone reads "answered; the host stopped before
 * the agent read it", and the model reads the answer in its history.
 */
export function answeredRow(row: StoredMessage, outcome: ToolOutcome): StoredMessage {
  const tool: ToolCall = { ...row.tool!, status: outcome.isError ? "error" : "ok", result: outcome.text, ...(outcome.error ? { error: outcome.error } : {}), ...(outcome.outcome ? { outcome: outcome.outcome } : {}) };
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
      return { text: tool.result ?? STOPPED_TOOL_TEXT, isError: true };
    default:
      return tool.status satisfies never;
  }
}
