import type { Readable, Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, type CallToolResult, type Implementation } from "@modelcontextprotocol/sdk/types.js";
import { SERVER_VERSION } from "../host/mcp/endpoint";
import { mcpToolList, toMcpResult } from "../host/mcp/tools";
import { createAskUserQuestionTool } from "../host/tools/ask-user-question";
import { createPresentPlanTool } from "../host/tools/present-plan";
import { createToolRegistry, formatToolErrorText } from "../host/tools/registry";
import { createUserInteraction } from "../host/user-interaction";

export const DEFAULT_PARLEY_URL = "http://127.0.0.1:8787";
/** Without progress for this long the host is taken for gone; it sends progress every 15 s while a call waits. */
const UPSTREAM_SILENCE_MS = 60_000;

export interface BridgeOptions {
  /** Where the Parley host runs (PARLEY_URL). */
  url: string;
  /** PARLEY_TOKEN, sent as `Authorization: Bearer`. */
  token?: string | undefined;
  stdin?: Readable;
  stdout?: Writable;
  /** Diagnostics; never stdout, which carries only protocol messages. */
  report?: (line: string) => void;
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

function reasonOf(error: unknown): string {
  if (error instanceof StreamableHTTPError) return `HTTP ${error.code ?? "error"}: ${error.message}`;
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/** The tools as the host lists them; used for `tools/list` while the host is down. */
function localTools() {
  const registry = createToolRegistry();
  const seam = createUserInteraction();
  registry.register(createAskUserQuestionTool(seam));
  registry.register(createPresentPlanTool(seam));
  return mcpToolList(registry, { waitTool: false });
}

/**
 * `parley mcp`: an MCP server on stdin/stdout that forwards to the running host's `/mcp`, for clients
 * that only launch commands. The host connection is made on first use with the client's own name,
 * so the Parley session is titled after the real client.
 */
export async function startStdioBridge(options: BridgeOptions): Promise<Bridge> {
  const report = options.report ?? ((line: string) => process.stderr.write(`${line}\n`));
  const endpoint = new URL("/mcp", options.url);
  const server = new Server({ name: "parley", title: "Parley", version: SERVER_VERSION }, { capabilities: { tools: {} } });
  let upstream: Promise<Client> | null = null;

  function connectUpstream(): Promise<Client> {
    upstream ??= (async () => {
      const info: Implementation = server.getClientVersion() ?? { name: "parley-bridge", version: SERVER_VERSION };
      const client = new Client({ name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) });
      const transport = new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: options.token ? { Authorization: `Bearer ${options.token}` } : {} },
      });
      client.onerror = (error) => report(`parley mcp: ${reasonOf(error)}`);
      client.onclose = () => {
        upstream = null;
      };
      await client.connect(transport);
      return client;
    })();
    const attempt = upstream;
    attempt.catch(() => {
      if (upstream === attempt) upstream = null;
    });
    return attempt;
  }

  async function dropUpstream() {
    const current = upstream;
    upstream = null;
    if (current) await current.then((client) => client.close(), () => undefined);
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      const client = await connectUpstream();
      return await client.listTools();
    } catch (error) {
      report(`parley mcp: listing the built-in tools, the host is not reachable (${reasonOf(error)})`);
      return { tools: localTools() };
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = extra._meta?.progressToken;
    for (let attempt = 0; ; attempt++) {
      let client: Client;
      try {
        client = await connectUpstream();
      } catch (error) {
        return toMcpResult({ isError: true, text: unreachableText(options.url, reasonOf(error)) }) as CallToolResult;
      }
      try {
        return (await client.callTool({ name: request.params.name, arguments: request.params.arguments ?? {} }, undefined, {
          signal: extra.signal,
          timeout: UPSTREAM_SILENCE_MS,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => {
            if (progressToken === undefined) return;
            extra.sendNotification({ method: "notifications/progress", params: { ...progress, progressToken } }).catch((error: unknown) => report(`parley mcp: ${reasonOf(error)}`));
          },
        })) as CallToolResult;
      } catch (error) {
        if (extra.signal.aborted) throw error;
        if (error instanceof StreamableHTTPError && error.code === 404 && attempt === 0) {
          await dropUpstream();
          continue;
        }
        if (error instanceof McpError && error.code !== -32001) throw new RpcError(error.code, error.message.replace(/^MCP error -?\d+: /, ""));
        await dropUpstream();
        return toMcpResult({ isError: true, text: unreachableText(options.url, reasonOf(error)) }) as CallToolResult;
      }
    }
  });

  server.onerror = (error) => report(`parley mcp: ${reasonOf(error)}`);
  const transport = new StdioServerTransport(options.stdin, options.stdout);
  await server.connect(transport);

  let closed: Promise<void> | null = null;
  const close = () => {
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
