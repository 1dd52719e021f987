import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, McpError, ToolListChangedNotificationSchema, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { backoffDelay } from "../../protocol/backoff";
import type { McpServerHealth } from "../../protocol/schemas";
import type { Logger } from "../log";
import type { AskRequest, AskResult } from "../pending/user-interaction";
import type { McpConfig } from "./config";
import { closeClient, lastStderrLine, newConnection, openTransport, statusOf, type Connection, type InFlight } from "./connection";
import { handleElicitations } from "./elicitation-handler";
import { listOfferedTools, type OfferedTool } from "./offered-tools";

export type { McpServerState } from "./connection";
export { offeredToolName, type OfferedTool } from "./offered-tools";

/** One configured server as `GET /api/health` reports it: `{name, state, tools, error?}`. */
export type McpServerStatus = McpServerHealth;

export interface CallContext {
  sessionId: string;
  signal: AbortSignal;
}

/** What the agent loop uses: the tools of every ready server, their status, and calls. */
export interface McpTools {
  /** The tools of every ready server, refreshed on `notifications/tools/list_changed`. */
  tools(): OfferedTool[];
  /** Every configured server, in file order. */
  status(): McpServerStatus[];
  /** Calls `listener` after the tools or a status changed; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /**
   * Calls a tool by its offered name. Resolves with the server's result, `isError` included; rejects
   * with McpCallError (UNKNOWN_TOOL, TOOL_FAILED) when there is no such tool, its server is not
   * ready, the connection fails, or `signal` aborts (the SDK then sends `notifications/cancelled`).
   */
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
  /** Cancels open elicitations, stops retrying, waits up to 2 s for messages being sent and calls in flight, then closes every connection (stdio servers exit). */
  close(): Promise<void>;
}

export type McpCallErrorCode = "UNKNOWN_TOOL" | "TOOL_FAILED";
export class McpCallError extends Error {
  override readonly name = "McpCallError";
  constructor(
    readonly code: McpCallErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface McpToolsOptions {
  log: Logger;
  /**
   * The seam: a server's form elicitation, mapped to questions, is asked as the session whose call it came during, named as
   * from that server, with the requested schema as its rule. It resolves with the answers (→ `accept`), rejects with code
   * ASK_CANCELLED when the human dismissed it (→ `decline`), and with anything else when it was never answered (→ `cancel`).
   */
  ask(request: AskRequest): Promise<AskResult>;
  /** Reconnect backoff: full jitter over base · 2^attempt capped at cap, at most `attempts` tries in a row. */
  retry?: { baseMs: number; capMs: number; attempts: number };
  random?: () => number;
  /** How long one tools/call may take; an elicitation answered by a human happens inside it. */
  callTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export const DEFAULT_MCP_RETRY = { baseMs: 1000, capMs: 60_000, attempts: 10 };
/** A connection that stayed up this long resets the retry count, so a server that dies once a day keeps being retried. */
export const STABLE_CONNECTION_MS = 60_000;
export const DEFAULT_CALL_TIMEOUT_MS = 30 * 60_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** How long shutdown waits for messages being sent (the cancels of open elicitations) and for calls to finish. */
const CLOSE_GRACE_MS = 2000;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Starts a connection to every enabled server of `config` and keeps it up (docs/architecture.md, MCP client). */
export function createMcpTools(config: McpConfig, options: McpToolsOptions): McpTools {
  const { log } = options;
  const retry = options.retry ?? DEFAULT_MCP_RETRY;
  const random = options.random ?? Math.random;
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const shutdown = new AbortController();
  const listeners = new Set<() => void>();
  const elicitations = new Set<Promise<ElicitResult>>();
  const pendingCalls = new Set<Promise<unknown>>();
  let offered: OfferedTool[] = [];
  const connections = config.servers.map(newConnection);

  function changed() {
    offered = connections.flatMap((connection) => (connection.state === "ready" ? connection.tools : []));
    for (const listener of listeners) listener();
  }

  const refreshing = new WeakMap<Client, Promise<void>>();
  function refreshTools(connection: Connection, client: Client) {
    const previous = refreshing.get(client) ?? Promise.resolve();
    const next = previous.then(async () => {
      if (connection.client !== client) return;
      try {
        const tools = await listOfferedTools(connection.config, client, log);
        if (connection.client !== client) return;
        connection.tools = tools;
        log({ event: "mcp/tools-changed", server: connection.config.name, tools: tools.length });
        changed();
      } catch (error) {
        log({ event: "mcp/tools-refresh-failed", server: connection.config.name, error: message(error) });
      }
    });
    refreshing.set(client, next);
  }

  function fail(connection: Connection, error: string) {
    if (shutdown.signal.aborted) return;
    const client = connection.client;
    connection.client = null;
    connection.tools = [];
    if (Date.now() - connection.readyAt >= STABLE_CONNECTION_MS && connection.readyAt > 0) connection.attempts = 0;
    connection.readyAt = 0;
    connection.state = "failed";
    const retrying = connection.attempts < retry.attempts;
    connection.error = retrying ? error : `${error} (gave up after ${connection.attempts} attempts)`;
    const delayMs = retrying ? backoffDelay(connection.attempts, random, retry.baseMs, retry.capMs) : null;
    log({ event: "mcp/server-failed", server: connection.config.name, error, attempt: connection.attempts, retryInMs: delayMs });
    changed();
    if (client) void client.close().catch((closeError: unknown) => log({ event: "mcp/close-failed", server: connection.config.name, error: message(closeError) }));
    if (delayMs === null) return;
    connection.attempts += 1;
    connection.timer = setTimeout(() => {
      connection.timer = null;
      void connect(connection);
    }, delayMs);
  }

  async function connect(connection: Connection) {
    if (shutdown.signal.aborted) return;
    // A failed server stays failed while it is retried, so the notice does not blink.
    if (connection.state !== "failed") {
      connection.state = "starting";
      changed();
    }
    connection.connecting = true;
    const client = new Client({ name: "parley", version: "0.1.0" }, { capabilities: { elicitation: { form: {} } } });
    connection.client = client;
    client.onclose = () => {
      // While connecting, connect() reports the failure with the error it got.
      if (connection.client !== client || connection.connecting) return;
      const tail = lastStderrLine(connection);
      fail(connection, tail ? `the server closed the connection: ${tail}` : "the server closed the connection");
    };
    client.onerror = (error) => log({ event: "mcp/transport-error", server: connection.config.name, error: message(error) });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => refreshTools(connection, client));
    handleElicitations(client, connection, { log, ask: options.ask, shutdown: shutdown.signal }, (handled) => {
      elicitations.add(handled);
      void handled.finally(() => elicitations.delete(handled));
    });
    try {
      await client.connect(openTransport(connection), { timeout: connectTimeoutMs });
      const tools = await listOfferedTools(connection.config, client, log);
      if (connection.client !== client) return;
      connection.connecting = false;
      connection.tools = tools;
      connection.state = "ready";
      delete connection.error;
      connection.readyAt = Date.now();
      log({ event: "mcp/server-ready", server: connection.config.name, transport: connection.config.transport, tools: tools.length });
      changed();
    } catch (error) {
      if (connection.client !== client) return;
      connection.connecting = false;
      const tail = lastStderrLine(connection);
      fail(connection, `could not start (${message(error)})${tail ? `: ${tail}` : ""}`);
    }
  }

  for (const connection of connections) if (connection.state !== "disabled") void connect(connection);

  return {
    tools: () => offered,

    status: () => connections.map(statusOf),

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async call(name, args, context) {
      const tool = offered.find((item) => item.name === name);
      const connection = tool && connections.find((item) => item.config.name === tool.server);
      if (!tool || !connection) throw new McpCallError("UNKNOWN_TOOL", `no MCP server offers the tool ${name}`);
      const client = connection.client;
      if (connection.state !== "ready" || !client) throw new McpCallError("TOOL_FAILED", `the MCP server ${tool.server} is not ready`);
      const ended = new AbortController();
      const flight: InFlight = { sessionId: context.sessionId, signal: AbortSignal.any([context.signal, ended.signal]) };
      connection.inFlight.add(flight);
      const calling = client.callTool({ name: tool.tool, arguments: args }, CallToolResultSchema, { signal: context.signal, timeout: callTimeoutMs });
      const forget = () => void pendingCalls.delete(calling);
      pendingCalls.add(calling);
      calling.then(forget, forget);
      try {
        return (await calling) as CallToolResult;
      } catch (error) {
        if (context.signal.aborted) throw new McpCallError("TOOL_FAILED", `the call of ${name} was stopped`);
        if (!(error instanceof McpError) && connection.client === client && connection.config.transport === "http") fail(connection, message(error));
        throw new McpCallError("TOOL_FAILED", `the MCP server ${tool.server} failed the call of ${tool.tool}: ${message(error)}`);
      } finally {
        connection.inFlight.delete(flight);
        // A form still open for this call (its server answered without waiting, or the call timed out) ends with it.
        ended.abort();
      }
    },

    async close() {
      shutdown.abort();
      for (const connection of connections) {
        if (connection.timer) clearTimeout(connection.timer);
        connection.timer = null;
      }
      await Promise.allSettled([...elicitations]);
      // The SDK sends a handler's result on a later tick; let the cancels go out before the connections close.
      await new Promise((resolve) => setImmediate(resolve));
      const sends = connections.flatMap((connection) => [...connection.sends]);
      await Promise.race([Promise.allSettled([...sends, ...pendingCalls]), new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
      await Promise.all(connections.map((connection) => closeClient(connection, log)));
      listeners.clear();
    },
  };
}
