import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerHealth } from "../../protocol/schemas";
import type { Logger } from "../log";
import { plainLabel } from "../../protocol/plain-label";
import type { McpServerConfig } from "./config";
import type { OfferedTool } from "./offered-tools";

export type McpServerState = McpServerHealth["state"];

/** A call of one of the server's tools while it runs: the chat it runs for, and its stop. */
export interface InFlight {
  sessionId: string;
  /** Aborted when the call is stopped and when it ends, however it ends: a form the server asked for it is then over. */
  signal: AbortSignal;
}

/** One configured server's connection as the manager keeps it: its state, its tools, its client and what is in flight. */
export interface Connection {
  config: McpServerConfig;
  state: McpServerState;
  error?: string;
  tools: OfferedTool[];
  client: Client | null;
  /** Set while connect() runs; it reports its own failure. */
  connecting: boolean;
  attempts: number;
  readyAt: number;
  timer: ReturnType<typeof setTimeout> | null;
  inFlight: Set<InFlight>;
  /** Messages being written to the transport; shutdown lets them finish so a cancel reaches the server. */
  sends: Set<Promise<void>>;
  stderr: string;
}

const STDERR_TAIL_CHARS = 2000;

/** A new connection record for a configured server: disabled, or starting. */
export function newConnection(server: McpServerConfig): Connection {
  return {
    config: server,
    state: server.disabled ? "disabled" : "starting",
    tools: [],
    client: null,
    connecting: false,
    attempts: 0,
    readyAt: 0,
    timer: null,
    inFlight: new Set(),
    sends: new Set(),
    stderr: "",
  };
}

/**
 * The transport a connection reaches its server over: Streamable HTTP, or a stdio child process whose stderr's tail is
 * kept for the failure message; every message it sends is tracked in `connection.sends`.
 */
export function openTransport(connection: Connection): Transport {
  const transport = transportFor(connection);
  const send = transport.send.bind(transport);
  transport.send = (...args) => {
    const sending = send(...args);
    connection.sends.add(sending);
    const forget = () => void connection.sends.delete(sending);
    sending.then(forget, forget);
    return sending;
  };
  return transport;
}

function transportFor(connection: Connection): Transport {
  const server = connection.config;
  if (server.transport === "http") {
    return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
  }
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...getDefaultEnvironment(), ...server.env },
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    stderr: "pipe",
  });
  connection.stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    connection.stderr = (connection.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  return transport;
}

/** The last line a stdio server wrote to stderr, or "". */
export function lastStderrLine(connection: Connection): string {
  return connection.stderr.trim().split("\n").at(-1)?.trim() ?? "";
}

/**
 * The connection as `GET /api/health` reports it: `{name, state, tools, error?}`, the error (the server's own words, its
 * stderr's last line) kept as titles are, without bidi controls, since the app shows it beside its own text.
 */
export function statusOf(connection: Connection): McpServerHealth {
  return {
    name: connection.config.name,
    state: connection.state,
    tools: connection.state === "ready" ? connection.tools.length : 0,
    ...(connection.error === undefined ? {} : { error: plainLabel(connection.error) }),
  };
}

/** Closes the connection's client, if it has one (a stdio server exits); a failure to close is logged. */
export async function closeClient(connection: Connection, log: Logger): Promise<void> {
  const client = connection.client;
  connection.client = null;
  if (!client) return;
  try {
    await client.close();
  } catch (error) {
    log({ event: "mcp/close-failed", server: connection.config.name, error: error instanceof Error ? error.message : String(error) });
  }
}
