import type { ModelErrorCode } from "../../protocol/errors";
/** A tool the model may call, with the JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool call as the model made it; `arguments` is the raw JSON text. */
export interface ModelToolCall {
  callId: string;
  name: string;
  arguments: string;
}

/** The conversation as the model sees it, rebuilt from the transcript. */
export type HistoryItem =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: ModelToolCall[] }
  | { role: "tool"; callId: string; name: string; text: string; isError: boolean };

export interface ModelRequest {
  history: HistoryItem[];
  tools: ToolSpec[];
  signal: AbortSignal;
}

/** What one model step yields: text as it streams, then any tool calls, in order. */
export type ModelEvent =
  | { type: "text"; delta: string }
  | { type: "tool-call"; call: ModelToolCall };

/** A chat model: one step answers the history with text and/or tool calls. */
export interface Model {
  /** Shown in logs and `/api/health`; never a secret. */
  readonly name: string;
  step(request: ModelRequest): AsyncIterable<ModelEvent>;
}

/** A model failure the turn reports to the human as an assistant error row. */
export class ModelError extends Error {
  override readonly name = "ModelError";
  constructor(
    message: string,
    readonly code: ModelErrorCode,
  ) {
    super(message);
  }
}
