import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { ModelError } from "./types";

// How the OpenAI adapter judges a failed attempt: each error of the API or the stream becomes one ModelError with its code,
// and whether (and after how long, by `Retry-After`) it is worth retrying.

const UPSTREAM_DETAIL_MAX_CHARS = 300;
const MIN_REDACTABLE_KEY_CHARS = 4;

/** Why an attempt failed, decided once, so the retry loop and the final message agree. */
export interface Failure {
  retryable: boolean;
  retryAfterMs?: number;
  error: ModelError;
}

/** The request went `timeoutMs` without a response or a streamed chunk. */
export class TimeoutSignal extends Error {}
/** The stream ended without a finish reason. */
export class IncompleteStream extends Error {}

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

/** What a failure's message names: the model, where its API is, the key's variable (never the key), the limits. */
export interface FailureContext {
  model: string;
  /** The API's base URL without credentials. */
  where: string;
  apiKey: string;
  keyVariable: string;
  maxRetries: number;
  timeoutMs: number;
  now(): number;
}

/** Judges an attempt's error; `yielded` says whether the attempt already streamed something (a cut stream is then not retried). */
export function failureJudge(context: FailureContext): (error: unknown, yielded: boolean) => Failure {
  const { where, keyVariable, maxRetries, timeoutMs } = context;

  function redact(text: string): string {
    const key = context.apiKey;
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
          retryAfterMs: parseRetryAfter(error.headers, context.now()),
          error: new ModelError(
            `The model API is rate-limiting requests (429) and still was after ${maxRetries} retries: ${upstreamDetail(error)}`,
            "MODEL_RATE_LIMITED",
          ),
        };
      }
      if (status >= 500 || status === 408) {
        return {
          retryable: true,
          retryAfterMs: parseRetryAfter(error.headers, context.now()),
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
            `The model API at ${where} has no model "${context.model}" (404): check PARLEY_MODEL and the base URL (${upstreamDetail(error)})`,
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

  return failureOf;
}
