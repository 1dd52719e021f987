import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { QuestionRequestedFrame, QuestionResolvedFrame } from "../../protocol/schemas";
import { createCleanup } from "./cleanup";
import { connect, startTestServer, type FrameClient } from "./harness";

interface ClientInfo {
  name: string;
  title?: string;
}

interface McpClientOptions {
  /** Who the client says it is; the file's default when left out. */
  info?: ClientInfo;
  headers?: Record<string, string>;
  /** An `Mcp-Session-Id` to resume instead of initializing a new session. */
  sessionId?: string;
}

/** Hosts, mux sockets and MCP clients for the tests of `/mcp`, introduced as `clientInfo` unless told otherwise; `closeAll` after each test. */
export function createFrontDoor(clientInfo: ClientInfo) {
  const cleanup = createCleanup();

  async function host(overrides: Parameters<typeof startTestServer>[0] = {}) {
    const server = await startTestServer(overrides);
    cleanup.servers.push(server);
    return server;
  }

  /** A mux socket that has seen `synced`. */
  async function socket(url: string, headers: Record<string, string> = {}): Promise<FrameClient> {
    const opened = await connect(url, headers);
    cleanup.sockets.push(opened);
    await opened.waitFor((frame) => frame.type === "synced");
    return opened;
  }

  /** A host and one synced mux socket on it. */
  async function start(overrides: Parameters<typeof startTestServer>[0] = {}) {
    const server = await host(overrides);
    return { server, socket: await socket(server.url) };
  }

  /** An MCP client connected to the host's `/mcp` over Streamable HTTP. */
  async function mcpClient(url: string, { info = clientInfo, headers = {}, sessionId }: McpClientOptions = {}) {
    const client = new Client({ ...info, version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", url), { requestInit: { headers }, sessionId });
    await client.connect(transport);
    cleanup.clients.push(client);
    if (transport.sessionId === undefined) throw new Error("the host answered initialize without an Mcp-Session-Id");
    return { client, transport, sessionId: transport.sessionId };
  }

  /** Every question pending on the host, as a fresh socket's replay shows it. */
  async function pendingOnHost(url: string, headers: Record<string, string> = {}): Promise<QuestionRequestedFrame[]> {
    const replay = await socket(url, headers);
    return replay.frames.filter((frame): frame is QuestionRequestedFrame => frame.type === "question/requested");
  }

  return { closeAll: () => cleanup.closeAll(), host, socket, start, mcpClient, pendingOnHost };
}

/** The first `question/requested` frame at or after index `from`. */
export function nextQuestion(socket: FrameClient, from = 0) {
  return socket.waitFor<QuestionRequestedFrame>((frame, index) => index >= from && frame.type === "question/requested", "question/requested");
}

/** The `question/resolved` frame of `rpcId`. */
export function resolvedFrame(socket: FrameClient, rpcId: string) {
  return socket.waitFor<QuestionResolvedFrame>((frame) => frame.type === "question/resolved" && frame.rpcId === rpcId, "question/resolved");
}
