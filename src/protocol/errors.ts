import type { ErrorCode, ToolError, ToolErrorCode } from "./schemas";

/**
 * Every error code the host can produce, by where it appears, each with its one-line meaning (docs/protocol.md, Error codes).
 * The sets are complete by type: a code added to a schema's enum without a meaning here does not compile, and
 * `errors.test.ts` fails when docs/protocol.md's tables miss one.
 */

/** A tool error's `code` (a tool row's `error`, the text the model reads, an MCP client's `isError` result). */
export const TOOL_ERROR_MEANINGS = {
  INVALID_ARGS: "the call's arguments are not JSON, nest too deep, or break the tool's schema",
  ASK_CANCELLED: "the human dismissed the questions",
  ASK_ABORTED: "the question was never answered: the turn stopped, the chat went, the caller went, or the host stopped",
  ASK_MISSING_SESSION: "a question was asked without the chat it belongs to",
  EMPTY_QUESTIONS: "a question batch had no questions",
  INVALID_QUESTIONS: "a question batch breaks a protocol limit",
  BAD_INTENT: "a question's intent names none of its options, or has no detail",
  TOO_MANY_PENDING: "the host already holds PARLEY_MAX_PENDING pending questions",
  UNKNOWN_TOOL: "no tool has that name",
  UNKNOWN_TICKET: "an MCP wait ticket that names no call this session waits on",
  TOOL_FAILED: "the tool failed in a way of its own, or its call was cut short",
  TOOL_DENIED: "the human denied the call on its approval card",
  TOOL_INTERRUPTED: "the human allowed the call, but its host stopped before it finished: it may not have run, or not to its end",
  MCP_TOOL_ERROR: "the MCP server's tool answered with an error result",
  MCP_SERVER_UNAVAILABLE: "no ready MCP server offers the tool",
  HOST_UNREACHABLE: "the stdio bridge got no answer from the Parley host",
  STORAGE_FULL: "the disk holding the data is full",
  STORAGE_READONLY: "the data cannot be written",
  STORAGE_BUSY: "the database is locked or cannot be reached",
  STORAGE_FAILED: "the database failed otherwise",
  INTERNAL: "the host failed in a way it did not expect",
} as const satisfies Record<ToolErrorCode, string>;

/** An HTTP error body's `error.code` (`{"error":{"code","message"}}`). */
export const HTTP_ERROR_MEANINGS = {
  BAD_REQUEST: "the request target or the request is malformed",
  INVALID_QUERY: "a query parameter is out of range or malformed",
  NOT_FOUND: "no such resource (session, media, path)",
  TURN_RUNNING: "a turn of the chat is starting or running, here or on another host",
  AGENT_SESSION: "the chat belongs to an outside agent: it takes no messages",
  AGENT_NOT_STARTED: "the ACP chat's agent session has not opened yet (its first message opens it)",
  INVALID_BODY: "the JSON body does not match the route's schema",
  INVALID_JSON: "the body is not JSON",
  UNSUPPORTED_MEDIA_TYPE: "the body is not application/json",
  PAYLOAD_TOO_LARGE: "the body is larger than the route accepts",
  FORBIDDEN: "the Host, Origin or Sec-Fetch-Site header is not allowed",
  UNAUTHORIZED: "the token or login is missing or wrong",
  UPGRADE_REQUIRED: "the path is a WebSocket",
  METHOD_NOT_ALLOWED: "the path does not take that method",
  RATE_LIMITED: "the client is over its brake for the route",
  STORAGE_FULL: "the disk holding the data is full (507)",
  STORAGE_READONLY: "the data cannot be written (503)",
  STORAGE_BUSY: "the database is locked or cannot be reached (503)",
  STORAGE_FAILED: "the database failed otherwise (500)",
  INTERNAL: "the host failed in a way it did not expect (500)",
} as const satisfies Record<ErrorCode, string>;

/** The `failure.code` of the assistant row that ends a failed turn. */
export const TURN_FAILURE_MEANINGS = {
  STEP_LIMIT: "the agent made PARLEY_MAX_STEPS model steps without a final answer",
  MODEL_FAILED: "the model failed in a way that has no code of its own",
  MODEL_AUTH: "the model API rejected the key",
  MODEL_RATE_LIMITED: "the model API is rate limiting the key",
  MODEL_UNAVAILABLE: "the model API is down or overloaded",
  MODEL_NOT_FOUND: "the model API does not know the model",
  MODEL_REQUEST_REJECTED: "the model API rejected the request",
  MODEL_STREAM_ERROR: "the model API reported an error mid-reply",
  MODEL_STREAM_CUT: "the model's reply was cut off mid-stream",
  MODEL_TIMEOUT: "the model API did not answer in time",
  MODEL_NETWORK: "the model API could not be reached",
  STORAGE_FULL: "a write of the turn failed: the disk is full",
  STORAGE_READONLY: "a write of the turn failed: the data cannot be written",
  STORAGE_BUSY: "a write of the turn failed: the database is locked or unreachable",
  STORAGE_FAILED: "a write of the turn failed otherwise",
  INTERNAL: "the turn failed in a way the host did not expect",
  AGENT_EXITED: "the ACP agent's process ended during the turn",
  AGENT_FAILED: "the ACP agent could not be started or answered the turn with an error",
} as const;

export type TurnFailureCode = keyof typeof TURN_FAILURE_MEANINGS;
/** The codes a model adapter's failures carry. */
export type ModelErrorCode = Extract<TurnFailureCode, `MODEL_${string}`>;

export function isTurnFailureCode(code: string): code is TurnFailureCode {
  return Object.hasOwn(TURN_FAILURE_MEANINGS, code);
}

/**
 * The tool-error text format (docs/protocol.md, Tools the agent calls): `Error: <message>`, then `{name, code}` as JSON on the
 * next line, so a model that reads only text still sees the code. `decodeToolErrorCode` reads the code back.
 */
export function encodeToolError(error: ToolError): string {
  return `Error: ${error.message}\n${JSON.stringify({ name: error.name, code: error.code })}`;
}

/** The code named by a tool error text made by `encodeToolError`, if any. */
export function decodeToolErrorCode(text: string): string | null {
  const lastLine = text.slice(text.lastIndexOf("\n") + 1);
  try {
    const parsed: unknown = JSON.parse(lastLine);
    if (parsed && typeof parsed === "object" && typeof (parsed as { code?: unknown }).code === "string") return (parsed as { code: string }).code;
  } catch {
    return null;
  }
  return null;
}
