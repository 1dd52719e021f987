import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema, type CallToolResult, type ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpConfig } from "../../host/mcp-client/config";

/** The stdio entry point, for `StdioClientTransport({ command: process.execPath, args: TEST_MCP_STDIO_ARGS })`. */
export const TEST_MCP_STDIO_ENTRY = path.resolve(import.meta.dirname, "test-mcp-server-stdio.ts");
export const TEST_MCP_STDIO_ARGS = ["--import", "tsx", TEST_MCP_STDIO_ENTRY];

/** A host's MCP config with the test server over stdio as `name`, nothing auto-approved. */
export function testMcpConfig(name = "notes"): McpConfig {
  return { file: null, servers: [{ name, transport: "stdio", command: process.execPath, args: TEST_MCP_STDIO_ARGS, env: {}, autoApprove: [], disabled: false }] };
}

/** A 1×1 transparent PNG. */
export const TINY_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
export const SLOW_TOOL_DEFAULT_MS = 30_000;

type RequestedSchema = ElicitRequestFormParams["requestedSchema"];

/** One form elicitation per row of the mapping table (README, MCP servers), plus the unsupported ones. */
export const TEST_ELICITATIONS: Record<string, { message: string; requestedSchema: RequestedSchema }> = {
  boolean: {
    message: "Confirm the deploy",
    requestedSchema: { type: "object", properties: { confirm: { type: "boolean", title: "Deploy now?", description: "Ships to production", default: true } }, required: ["confirm"] },
  },
  enum: {
    message: "Pick a colour",
    requestedSchema: { type: "object", properties: { colour: { type: "string", enum: ["red", "green"] } }, required: ["colour"] },
  },
  titled: {
    message: "Pick a size",
    requestedSchema: {
      type: "object",
      properties: { size: { type: "string", title: "Size", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }], default: "l" } },
    },
  },
  legacy: {
    message: "Pick a region",
    requestedSchema: { type: "object", properties: { region: { type: "string", enum: ["eu", "us"], enumNames: ["Europe", "United States"] } }, required: ["region"] },
  },
  multi: {
    message: "Pick toppings",
    requestedSchema: {
      type: "object",
      properties: {
        toppings: { type: "array", title: "Toppings", minItems: 1, maxItems: 2, items: { anyOf: [{ const: "ham", title: "Ham" }, { const: "egg", title: "Egg" }, { const: "kale", title: "Kale" }] } },
        extras: { type: "array", items: { type: "string", enum: ["salt", "pepper"] } },
      },
      required: ["toppings"],
    },
  },
  string: {
    message: "Tell me about you",
    requestedSchema: {
      type: "object",
      properties: {
        email: { type: "string", title: "Email", format: "email" },
        site: { type: "string", format: "uri" },
        born: { type: "string", format: "date" },
        meet: { type: "string", format: "date-time" },
        nick: { type: "string", minLength: 2, maxLength: 8, default: "ada" },
      },
      required: ["email"],
    },
  },
  number: {
    message: "How many?",
    requestedSchema: {
      type: "object",
      properties: { count: { type: "integer", title: "Count", minimum: 1, maximum: 10, default: 3 }, ratio: { type: "number", minimum: 0, maximum: 1 } },
      required: ["count"],
    },
  },
  nested: {
    message: "An address",
    requestedSchema: { type: "object", properties: { address: { type: "object", properties: { city: { type: "string" } } } } } as unknown as RequestedSchema,
  },
};

export interface TestMcpServerOptions {
  /** Records what reached the server (`slow:started`, `slow:aborted`, …); shared by every session of an HTTP server. */
  events: string[];
  /** What the `crash` tool does: exit the process (stdio) or drop every connection (HTTP). */
  crash(): void;
}

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

/** The SDK McpServer the tests drive: every tool a behaviour of docs/architecture.md (MCP client) needs. */
export function createTestMcpServer(options: TestMcpServerOptions): McpServer {
  const { events } = options;
  const server = new McpServer({ name: "parley-test-server", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  const notes = new Map<string, string>();

  server.registerTool("read_note", { description: "Reads a note", inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } }, ({ name }) =>
    text(notes.get(name) ?? `no note named ${name}`),
  );
  server.registerTool("write_note", { description: "Writes a note", inputSchema: { name: z.string(), text: z.string() } }, ({ name, text: body }) => {
    notes.set(name, body);
    events.push(`write_note:${name}`);
    return text(`saved ${name}`);
  });
  server.registerTool("slow", { description: "Waits, or stops when cancelled", inputSchema: { ms: z.optional(z.number()) }, annotations: { readOnlyHint: true } }, ({ ms }, extra) => {
    events.push("slow:started");
    return new Promise<CallToolResult>((resolve) => {
      const timer = setTimeout(() => {
        events.push("slow:finished");
        resolve(text("done"));
      }, ms ?? SLOW_TOOL_DEFAULT_MS);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        events.push("slow:aborted");
        resolve(text("aborted"));
      });
    });
  });
  server.registerTool("fail", { description: "Always fails", annotations: { readOnlyHint: true } }, () => ({
    content: [{ type: "text", text: "the tool failed on purpose" }],
    isError: true,
  }));
  server.registerTool("image", { description: "Returns a tiny PNG", annotations: { readOnlyHint: true } }, () => ({
    content: [{ type: "image", data: TINY_PNG_BASE64, mimeType: "image/png" }],
  }));
  server.registerTool("add_tool", { description: "Adds a tool named by the argument", inputSchema: { name: z.string() } }, ({ name }) => {
    server.registerTool(name, { description: `Added at run time`, annotations: { readOnlyHint: true } }, () => text(`${name} ran`));
    return text(`added ${name}`);
  });
  server.registerTool("environment", { description: "The names of the variables the server was started with", annotations: { readOnlyHint: true } }, () =>
    text(JSON.stringify(Object.keys(process.env).sort())),
  );
  server.registerTool("events", { description: "What reached the server", annotations: { readOnlyHint: true } }, () => text(JSON.stringify(events)));
  server.registerTool("crash", { description: "Dies mid-call", annotations: { readOnlyHint: true } }, () => {
    events.push("crash");
    options.crash();
    return new Promise<CallToolResult>(() => undefined);
  });
  for (const [kind, params] of Object.entries(TEST_ELICITATIONS)) {
    server.registerTool(`ask_${kind}`, { description: `Elicits the ${kind} form`, annotations: { readOnlyHint: true } }, async (extra) => {
      const result = await server.server.elicitInput({ mode: "form", ...params }, { relatedRequestId: extra.requestId, timeout: 10 * 60_000 });
      events.push(`ask_${kind}:${result.action}`);
      return text(JSON.stringify(result));
    });
  }
  server.registerTool("ask_url", { description: "Elicits in URL mode, which the client never declared", annotations: { readOnlyHint: true } }, async (extra) => {
    // Past elicitInput, which refuses a mode the client did not declare: a server that asks anyway.
    const params = { mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "login-1" };
    const result = await server.server.request({ method: "elicitation/create", params }, ElicitResultSchema, { relatedRequestId: extra.requestId });
    events.push(`ask_url:${result.action}`);
    return text(JSON.stringify(result));
  });
  return server;
}

/** The test server over Streamable HTTP on a free 127.0.0.1 port, one McpServer per MCP session. */
export interface TestMcpHttpServer {
  url: string;
  events: string[];
  close(): Promise<void>;
}

export async function startTestMcpHttpServer(): Promise<TestMcpHttpServer> {
  const events: string[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => void handle(request, response));
  const crash = () => {
    http.closeAllConnections();
    for (const transport of transports.values()) void transport.close();
    transports.clear();
  };

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const id = request.headers["mcp-session-id"];
    const known = typeof id === "string" ? transports.get(id) : undefined;
    if (known) return known.handleRequest(request, response);
    if (request.method !== "POST" || id !== undefined) {
      response.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => void transports.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await createTestMcpServer({ events, crash }).connect(transport);
    await transport.handleRequest(request, response);
  }

  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    events,
    async close() {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      transports.clear();
      await closed;
    },
  };
}
