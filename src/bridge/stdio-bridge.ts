import { AsyncLocalStorage } from "node:async_hooks";
import type { Readable, Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Implementation, type ListToolsResult, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { LIMITS, type ToolError } from "../protocol/schemas";
import { ABORTED_MESSAGE, ASK_ABORTED_ERROR } from "../protocol/tool-messages";
import { SERVER_VERSION } from "../host/mcp-server/endpoint";
import { mcpToolList, toMcpResult } from "../host/mcp-server/tools";
import { formatToolErrorText } from "../host/tools/registry";
import { listedBuiltInTools } from "../host/tools/built-in";

export const DEFAULT_PARLEY_URL = "http://127.0.0.1:8787";
/**
 * Without a sign of the host for this long it is taken for gone: no progress on a waiting call (it sends progress every 15 s),
 * or no answer at all after a call's connection was lost (a restart takes less).
 */
const UPSTREAM_SILENCE_MS = 60_000;
/** Arguments nested deeper are refused before they are sent: the bound the host holds model-written arguments to (chat.ts). */
export const MAX_ARGUMENT_DEPTH = 64;
const PROBE_EVERY_MS = 250;
const PROBE_TIMEOUT_MS = 2_000;

export interface BridgeOptions {
  /** Where the Parley host runs (PARLEY_URL). */
  url: string;
  /** PARLEY_TOKEN, sent as `Authorization: Bearer`. */
  token?: string | undefined;
  stdin?: Readable;
  stdout?: Writable;
  /** Diagnostics; never stdout, which carries only protocol messages. */
  report?: (line: string) => void;
  /** How long a call whose connection was lost waits for the host to answer again before it reports it unreachable; UPSTREAM_SILENCE_MS unless set. */
  hostReturnMs?: number;
}

export interface Bridge {
  close(): Promise<void>;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The tool error every call gets while the host cannot be reached: it says how to start it. */
export function unreachableText(url: string, reason: string): string {
  return formatToolErrorText({
    name: "BridgeError",
    code: "HOST_UNREACHABLE",
    message: `Parley is not reachable at ${url} (${reason}). Start it in the Parley repository with \`npm start\` (or set PARLEY_URL to where it runs, and PARLEY_TOKEN if it has one), then call this tool again.`,
  });
}

/** The tool error of a call whose connection to the host was lost before the human answered: the question is gone with it. */
function lostCallText(url: string): string {
  return formatToolErrorText({
    ...ASK_ABORTED_ERROR,
    message: `${ABORTED_MESSAGE}: the connection to Parley at ${url} was lost while the question waited (the host restarted, or the connection dropped), so no answer reached this call; one the human gave meanwhile is in the Parley chat. Call the tool again to ask again.`,
  });
}

function reasonOf(error: unknown): string {
  if (error instanceof StreamableHTTPError) return `HTTP ${error.code ?? "error"}: ${error.message}`;
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

function toolError(error: ToolError): CallToolResult {
  return toMcpResult({ isError: true, text: formatToolErrorText(error) }) as CallToolResult;
}

function invalidArgs(problem: string): CallToolResult {
  return toolError({ name: "ToolError", code: "INVALID_ARGS", message: `invalid arguments: ${problem}` });
}

/** Whether `value` holds objects or arrays nested more than `limit` deep (the outermost is level 1); counted without recursion, so no depth overflows the stack. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth > limit) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

/**
 * Whether the call's connection went while the call was out: the request reached the host and its socket closed before the
 * reply began (the host stopped as it took the question in), or another call closed this connection after finding the host
 * restarted. A connection that was never made (refused, no such host) is not one: that host is not reachable.
 */
function lostUnderCall(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  const code = error instanceof TypeError ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
  return code === "UND_ERR_SOCKET" || code === "ECONNRESET" || code === "EPIPE";
}

/** The tools as the host lists them; used for `tools/list` while the host is down. */
function localTools() {
  return mcpToolList(listedBuiltInTools(), { waitTool: false });
}

/** The call whose request is being sent: its POST's event stream tells it when it ends. */
const sendingCall = new AsyncLocalStorage<{ streamEnded(): void }>();

/** `body`, passed through; `ended` runs once it has ended or failed. */
function watchEnd(body: ReadableStream<Uint8Array>, ended: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        controller.error(error);
        ended();
        return;
      }
      if (!chunk.done) return controller.enqueue(chunk.value);
      controller.close();
      ended();
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** fetch, with the event stream of a call's POST watched, so a stream that ends before the call's answer is noticed at once. */
const watchingFetch: FetchLike = async (url, init) => {
  const call = sendingCall.getStore();
  const response = await fetch(url, init);
  const eventStream = response.headers.get("content-type")?.startsWith("text/event-stream") === true;
  if (!call || init?.method !== "POST" || !response.ok || !response.body || !eventStream) return response;
  return new Response(watchEnd(response.body, call.streamEnded), { status: response.status, statusText: response.statusText, headers: response.headers });
};

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Forwarded = { kind: "result"; result: CallToolResult } | { kind: "error"; error: unknown } | { kind: "lost"; late(): CallToolResult | undefined };

/** Sends the call; reports it `lost` when its event stream ended without the answer, which then can never come. */
async function forward(client: Client, name: string, args: Record<string, unknown>, signal: AbortSignal, onprogress: (progress: Progress) => void): Promise<Forwarded> {
  let streamEnded!: () => void;
  const ended = new Promise<void>((resolve) => {
    streamEnded = resolve;
  });
  const calling = sendingCall.run({ streamEnded }, () =>
    client.callTool({ name, arguments: args }, undefined, { signal, timeout: UPSTREAM_SILENCE_MS, resetTimeoutOnProgress: true, onprogress }),
  );
  let late: CallToolResult | undefined;
  calling.then(
    (result) => {
      late = result as CallToolResult;
    },
    () => undefined,
  );
  return Promise.race([
    calling.then(
      (result): Forwarded => ({ kind: "result", result: result as CallToolResult }),
      (error: unknown): Forwarded => ({ kind: "error", error }),
    ),
    // The SDK reads what the stream held before it ended on later ticks; an answer among it settles `calling` first.
    ended.then(nextTurn).then((): Forwarded => ({ kind: "lost", late: () => late })),
  ]);
}

/**
 * `parley mcp`: an MCP server on stdin/stdout that forwards to the running host's `/mcp`, for clients
 * that only launch commands. The host connection is made on first use with the client's own name,
 * so the Parley session is titled after the real client.
 */
export async function startStdioBridge(options: BridgeOptions): Promise<Bridge> {
  const report = options.report ?? ((line: string) => process.stderr.write(`${line}\n`));
  const hostReturnMs = options.hostReturnMs ?? UPSTREAM_SILENCE_MS;
  const endpoint = new URL("/mcp", options.url);
  const authorization: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  // `listChanged`: the tools listed while the host was down (or before it restarted) may differ from its own, which
  // the client is told to list again once the bridge reaches it (the wait tool, say).
  const server = new Server({ name: "parley", title: "Parley", version: SERVER_VERSION }, { capabilities: { tools: { listChanged: true } } });
  let upstream: Promise<Client> | null = null;
  let closing = false;
  /** Where the client's last tool list came from: none yet, the bridge's own list, or a host connection. */
  let listedFrom: "none" | "local" | Client = "none";

  function connectUpstream(): Promise<Client> {
    if (upstream) return upstream;
    const attempt = (async () => {
      const info: Implementation = server.getClientVersion() ?? { name: "parley-bridge", version: SERVER_VERSION };
      const client = new Client({ name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) });
      const transport = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: authorization }, fetch: watchingFetch });
      client.onerror = (error) => report(`parley mcp: ${reasonOf(error)}`);
      client.onclose = () => {
        if (upstream === attempt) upstream = null;
      };
      await client.connect(transport);
      if (listedFrom !== "none" && listedFrom !== client) {
        server.sendToolListChanged().catch((error: unknown) => report(`parley mcp: ${reasonOf(error)}`));
      }
      return client;
    })();
    upstream = attempt;
    attempt.catch(() => {
      if (upstream === attempt) upstream = null;
    });
    return attempt;
  }

  /** Closes the host connection if it is still the one `client` belongs to; a newer one stays. */
  async function dropUpstream(client: Client) {
    const current = upstream;
    if (!current || (await current.catch(() => null)) !== client) return;
    if (upstream === current) upstream = null;
    await client.close();
  }

  /** Null when the host answers HTTP at all (a restarted host knows no old session, but it answers), else why not. */
  async function unreachableReason(): Promise<string | null> {
    try {
      const response = await fetch(endpoint, { method: "GET", headers: authorization, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await response.body?.cancel();
      return response.status < 500 ? null : `HTTP ${response.status}`;
    } catch (error) {
      return reasonOf(error);
    }
  }

  /**
   * A call whose connection was lost: the host withdrew its question (a closed stream aborts the call, a restart forgets it).
   * Once the host answers again the agent is told so (ASK_ABORTED); only a host that stays silent for hostReturnMs is unreachable.
   */
  async function afterLoss(client: Client, signal: AbortSignal, late: () => CallToolResult | undefined, stopCall: () => void): Promise<CallToolResult> {
    const deadline = Date.now() + hostReturnMs;
    for (;;) {
      const reason = await unreachableReason();
      const result = late();
      if (result) return result;
      signal.throwIfAborted();
      if (reason === null) {
        // The same host still holds the session after a dropped stream; a restarted one answers 404 and a new one is made on the next call.
        await client.ping({ timeout: PROBE_TIMEOUT_MS }).catch(() => dropUpstream(client));
        stopCall();
        return toMcpResult({ isError: true, text: lostCallText(options.url) }) as CallToolResult;
      }
      if (closing || Date.now() >= deadline) {
        await dropUpstream(client);
        stopCall();
        return toMcpResult({ isError: true, text: unreachableText(options.url, reason) }) as CallToolResult;
      }
      await delay(PROBE_EVERY_MS);
    }
  }

  /** The host's tool list through its connection; a connection the host no longer knows (it restarted) is made again once. */
  async function hostTools(retry: boolean): Promise<ListToolsResult> {
    const client = await connectUpstream();
    try {
      const listed = await client.listTools();
      listedFrom = client;
      return listed;
    } catch (error) {
      if (!retry) throw error;
      await dropUpstream(client);
      return hostTools(false);
    }
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      return await hostTools(true);
    } catch (error) {
      report(`parley mcp: listing the built-in tools, the host is not reachable (${reasonOf(error)})`);
      listedFrom = "local";
      return { tools: localTools() };
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = request.params.arguments ?? {};
    if (nestedDeeperThan(args, MAX_ARGUMENT_DEPTH)) return invalidArgs(`arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels`);
    const progressToken = extra._meta?.progressToken;
    const onprogress = (progress: Progress) => {
      if (progressToken === undefined) return;
      extra.sendNotification({ method: "notifications/progress", params: { ...progress, progressToken } }).catch((error: unknown) => report(`parley mcp: ${reasonOf(error)}`));
    };
    for (let attempt = 0; ; attempt++) {
      let client: Client;
      try {
        client = await connectUpstream();
      } catch (error) {
        return toMcpResult({ isError: true, text: unreachableText(options.url, reasonOf(error)) }) as CallToolResult;
      }
      const stop = new AbortController();
      const forwarded = await forward(client, request.params.name, args, AbortSignal.any([extra.signal, stop.signal]), onprogress);
      if (forwarded.kind === "result") return forwarded.result;
      if (forwarded.kind === "lost") return afterLoss(client, extra.signal, forwarded.late, () => stop.abort());
      const { error } = forwarded;
      if (extra.signal.aborted) throw error;
      if (error instanceof StreamableHTTPError && error.code === 404 && attempt === 0) {
        await dropUpstream(client);
        continue;
      }
      if (error instanceof StreamableHTTPError && error.code === 413) return invalidArgs(`the call is larger than the Parley host accepts (${LIMITS.httpBodyBytes} bytes of JSON)`);
      if (lostUnderCall(error) && !closing) return afterLoss(client, extra.signal, () => undefined, () => undefined);
      if (error instanceof McpError && error.code !== ErrorCode.RequestTimeout) throw new RpcError(error.code, error.message.replace(/^MCP error -?\d+: /, ""));
      await dropUpstream(client);
      return toMcpResult({ isError: true, text: unreachableText(options.url, reasonOf(error)) }) as CallToolResult;
    }
  });

  server.onerror = (error) => report(`parley mcp: ${reasonOf(error)}`);
  const transport = new StdioServerTransport(options.stdin, options.stdout);
  await server.connect(transport);

  let closed: Promise<void> | null = null;
  const close = () => {
    closing = true;
    closed ??= (async () => {
      const current = upstream;
      upstream = null;
      if (current) {
        await current.then(
          async (client) => {
            await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession();
            await client.close();
          },
          () => undefined,
        );
      }
      await server.close();
    })();
    return closed;
  };
  (options.stdin ?? process.stdin).once("end", () => {
    close().catch((error: unknown) => report(`parley mcp: ${reasonOf(error)}`));
  });
  return { close };
}
