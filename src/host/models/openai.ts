import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { SYSTEM_PROMPT } from "./system-prompt";
import { ModelError, type HistoryItem, type Model, type ModelEvent, type ModelRequest, type ModelToolCall, type ToolSpec } from "./types";

/** Backoff for retried failures: full jitter over `baseDelayMs * 2^attempt` capped at `maxDelayMs`; `Retry-After` wins, capped. */
export interface BackoffPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
}

/** The clock the retry loop uses; tests replace it so they never sleep long. */
export interface RetryTiming {
  /** Waits `ms`, or less if `signal` aborts first. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
  /** Milliseconds since the epoch, for `Retry-After` HTTP dates. */
  now(): number;
}

export interface OpenAIModelOptions {
  model: string;
  baseURL: string;
  apiKey: string;
  /** Shown in logs and `/api/health`; defaults to `openai:<model>`. */
  name?: string;
  /** The environment variable that holds the key, named in the error a rejected key produces. */
  keyVariable?: string;
  /** Retries after the first attempt for 429, 5xx, network errors and timeouts. */
  maxRetries?: number;
  /** How long the request may go without a response or a streamed chunk. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  systemPrompt?: string;
  backoff?: Partial<BackoffPolicy>;
  timing?: Partial<RetryTiming>;
}

/** A model on an OpenAI-compatible chat-completions API. */
export interface OpenAIModel extends Model {
  /** The API's base URL without any credentials, for the start-up line. */
  readonly baseURL: string;
}

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_BACKOFF: BackoffPolicy = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 };
const UPSTREAM_DETAIL_MAX_CHARS = 300;
const MIN_REDACTABLE_KEY_CHARS = 4;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener("abort", finish, { once: true });
  });
}

const REAL_TIMING: RetryTiming = { sleep, random: Math.random, now: Date.now };

/** `baseURL` with any user name or password removed. */
export function displayURL(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = "";
    url.password = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return "(invalid URL)";
  }
}

function toChatMessages(systemPrompt: string, history: HistoryItem[]): ChatCompletionMessageParam[] {
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

function toChatTools(tools: ToolSpec[]): ChatCompletionFunctionTool[] {
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
class ToolCallAssembler {
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

/** Why an attempt failed, decided once, so the retry loop and the final message agree. */
interface Failure {
  retryable: boolean;
  retryAfterMs?: number;
  error: ModelError;
}

class TimeoutSignal extends Error {}
class IncompleteStream extends Error {}

function parseRetryAfter(headers: Headers | undefined, now: number): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds)) return Math.max(0, milliseconds);
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value.trim());
  if (value.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Creates a chat model on an OpenAI-compatible API through the official `openai` SDK, streaming.
 * When the request's signal aborts, the HTTP request is cancelled and the step ends quietly, with
 * no further event and no error: the agent loop checks its own signal after every step.
 */
export function createOpenAIModel(options: OpenAIModelOptions): OpenAIModel {
  const name = options.name ?? `openai:${options.model}`;
  const keyVariable = options.keyVariable ?? "OPENAI_API_KEY";
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const timing = { ...REAL_TIMING, ...options.timing };
  const systemPrompt = options.systemPrompt ?? SYSTEM_PROMPT;
  const where = displayURL(options.baseURL);
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: "off",
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  function redact(text: string): string {
    const key = options.apiKey;
    return key.length < MIN_REDACTABLE_KEY_CHARS ? text : text.split(key).join("[redacted]");
  }

  function upstreamDetail(error: APIError): string {
    const inner: unknown = error.error;
    const message =
      typeof inner === "object" && inner !== null && "message" in inner && typeof inner.message === "string"
        ? inner.message
        : error.message;
    return redact(message).slice(0, UPSTREAM_DETAIL_MAX_CHARS);
  }

  function failureOf(error: unknown, yielded: boolean): Failure {
    if (error instanceof APIError && error.status !== undefined) {
      const status = error.status;
      if (status === 401 || status === 403) {
        return {
          retryable: false,
          error: new ModelError(`The model API rejected the key (${status}): check ${keyVariable}`, "MODEL_AUTH"),
        };
      }
      if (status === 429) {
        return {
          retryable: true,
          retryAfterMs: parseRetryAfter(error.headers, timing.now()),
          error: new ModelError(
            `The model API is rate-limiting requests (429) and still was after ${maxRetries} retries: ${upstreamDetail(error)}`,
            "MODEL_RATE_LIMITED",
          ),
        };
      }
      if (status >= 500 || status === 408) {
        return {
          retryable: true,
          retryAfterMs: parseRetryAfter(error.headers, timing.now()),
          error: new ModelError(
            `The model API failed (${status}) and still did after ${maxRetries} retries: ${upstreamDetail(error)}`,
            "MODEL_UNAVAILABLE",
          ),
        };
      }
      if (status === 404) {
        return {
          retryable: false,
          error: new ModelError(
            `The model API at ${where} has no model "${options.model}" (404): check PARLEY_MODEL and the base URL (${upstreamDetail(error)})`,
            "MODEL_NOT_FOUND",
          ),
        };
      }
      return {
        retryable: false,
        error: new ModelError(`The model API rejected the request (${status}): ${upstreamDetail(error)}`, "MODEL_REQUEST_REJECTED"),
      };
    }
    if (error instanceof APIError && !(error instanceof APIConnectionError)) {
      return {
        retryable: !yielded,
        error: new ModelError(`The model API reported an error mid-reply: ${upstreamDetail(error)}`, "MODEL_STREAM_ERROR"),
      };
    }
    if (error instanceof TimeoutSignal || error instanceof APIConnectionTimeoutError) {
      return {
        retryable: !yielded,
        error: new ModelError(`The model API at ${where} did not answer within ${timeoutMs} ms`, "MODEL_TIMEOUT"),
      };
    }
    if (error instanceof APIConnectionError) {
      const cause = error.cause instanceof Error ? (error.cause.cause instanceof Error ? error.cause.cause : error.cause) : error;
      return {
        retryable: true,
        error: new ModelError(`Could not reach the model API at ${where}: ${redact(cause.message)}`, "MODEL_NETWORK"),
      };
    }
    const reason =
      error instanceof IncompleteStream
        ? "the stream ended before the reply was complete"
        : `the connection failed (${redact(error instanceof Error ? error.message : String(error))})`;
    return {
      retryable: !yielded,
      error: new ModelError(`The model's reply was cut off mid-stream: ${reason}`, "MODEL_STREAM_CUT"),
    };
  }

  function delayFor(attempt: number, failure: Failure): number {
    if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, backoff.maxRetryAfterMs);
    return timing.random() * Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** attempt);
  }

  async function* attempt(
    body: ChatCompletionCreateParamsStreaming,
    signal: AbortSignal,
    progress: { yielded: boolean },
  ): AsyncGenerator<ModelEvent> {
    const idle = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pause = () => clearTimeout(timer);
    const arm = () => {
      pause();
      timer = setTimeout(() => idle.abort(new TimeoutSignal()), timeoutMs);
    };
    const requestSignal = AbortSignal.any([signal, idle.signal]);
    const timedOut = () => idle.signal.aborted && !signal.aborted;
    arm();
    try {
      let stream;
      try {
        stream = await client.chat.completions.create(body, { signal: requestSignal });
      } catch (error) {
        throw timedOut() ? new TimeoutSignal() : error;
      }
      const calls = new ToolCallAssembler();
      let finished = false;
      try {
        for await (const chunk of stream) {
          const choice = chunk.choices.find((candidate) => candidate.index === 0);
          if (!choice) continue;
          const text = choice.delta.content;
          if (text) {
            progress.yielded = true;
            pause();
            yield { type: "text", delta: text };
          }
          calls.add(choice.delta.tool_calls ?? []);
          if (choice.finish_reason) {
            finished = true;
            break;
          }
          arm();
        }
      } catch (error) {
        throw timedOut() ? new TimeoutSignal() : error;
      }
      pause();
      if (signal.aborted) return;
      if (timedOut()) throw new TimeoutSignal();
      if (!finished) throw new IncompleteStream();
      for (const call of calls.ordered()) {
        progress.yielded = true;
        yield { type: "tool-call", call };
      }
    } finally {
      pause();
    }
  }

  async function* step({ history, tools, signal }: ModelRequest): AsyncGenerator<ModelEvent> {
    const body: ChatCompletionCreateParamsStreaming = {
      model: options.model,
      messages: toChatMessages(systemPrompt, history),
      ...(tools.length > 0 ? { tools: toChatTools(tools) } : {}),
      stream: true,
    };
    for (let retry = 0; ; retry++) {
      if (signal.aborted) return;
      const progress = { yielded: false };
      try {
        yield* attempt(body, signal, progress);
        return;
      } catch (error) {
        if (signal.aborted) return;
        const failure = failureOf(error, progress.yielded);
        if (!failure.retryable || retry >= maxRetries) throw failure.error;
        await timing.sleep(delayFor(retry, failure), signal);
      }
    }
  }

  return { name, baseURL: where, step };
}
