import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { failureJudge, IncompleteStream, TimeoutSignal, type Failure } from "./openai-failures";
import { toChatMessages, toChatTools, ToolCallAssembler } from "./openai-wire";
import { SYSTEM_PROMPT } from "./system-prompt";
import type { Model, ModelEvent, ModelRequest } from "./types";

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

  const failureOf = failureJudge({ model: options.model, where, apiKey: options.apiKey, keyVariable, maxRetries, timeoutMs, now: () => timing.now() });

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
