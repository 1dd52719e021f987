import type { ChatCompletionChunk, ChatCompletionFunctionTool, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { HistoryItem, ModelToolCall, ToolSpec } from "./types";

// The chat-completions wire of the OpenAI adapter: a step's history and tools as the API takes them, and the streamed
// fragments of tool calls assembled into whole calls.

/** The request's messages: the system prompt, then the history as chat-completions messages. */
export function toChatMessages(systemPrompt: string, history: HistoryItem[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: "system", content: systemPrompt }];
  for (const item of history) {
    switch (item.role) {
      case "user":
        messages.push({ role: "user", content: item.text });
        break;
      case "assistant":
        if (item.toolCalls.length === 0) {
          if (item.text !== "") messages.push({ role: "assistant", content: item.text });
          break;
        }
        messages.push({
          role: "assistant",
          content: item.text === "" ? null : item.text,
          tool_calls: item.toolCalls.map((call) => ({
            id: call.callId,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        });
        break;
      case "tool":
        messages.push({ role: "tool", tool_call_id: item.callId, content: item.text });
        break;
      default:
        item satisfies never;
    }
  }
  return messages;
}

/** The tools as chat-completions function tools. */
export function toChatTools(tools: ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

type ToolCallFragment = NonNullable<ChatCompletionChunk.Choice["delta"]["tool_calls"]>[number];

interface PartialToolCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

/**
 * Builds whole tool calls from streamed fragments keyed by `index` (its position in the delta when a
 * server omits it); a new `id` at a used index starts a new call, as some servers send every call at index 0.
 */
export class ToolCallAssembler {
  private readonly calls: PartialToolCall[] = [];
  private readonly current = new Map<number, PartialToolCall>();

  add(fragments: ToolCallFragment[]): void {
    for (const [position, fragment] of fragments.entries()) {
      const index = (fragment.index as number | undefined) ?? position;
      let call = this.current.get(index);
      if (!call || (fragment.id && call.id && fragment.id !== call.id)) {
        call = { index, id: "", name: "", arguments: "" };
        this.calls.push(call);
        this.current.set(index, call);
      }
      if (fragment.id && !call.id) call.id = fragment.id;
      const name = fragment.function?.name;
      if (name && name !== call.name) call.name += name;
      call.arguments += fragment.function?.arguments ?? "";
    }
  }

  ordered(): ModelToolCall[] {
    return [...this.calls]
      .sort((a, b) => a.index - b.index)
      .map((call) => ({
        callId: call.id || `call_${crypto.randomUUID()}`,
        name: call.name,
        arguments: call.arguments,
      }));
  }
}
