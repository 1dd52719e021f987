import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { approvalAnswer } from "../../protocol/approval";
import type { McpToolCall } from "../../protocol/schemas";
import { McpCallError, type OfferedTool } from "./manager";
import { createPendingTable } from "../pending/pending-table";
import { createUserInteraction } from "../pending/user-interaction";
import { createMcpToolSource, MCP_IMAGE_MAX_BYTES, splitToolName } from "./tool-source";
import { formatToolErrorText } from "../tools/registry";

const write: OfferedTool = { name: "mcp__notes__write", server: "notes", tool: "write", description: "Writes", inputSchema: { type: "object" }, readOnly: false, autoApproved: false, destructive: false };
const erase: OfferedTool = { name: "mcp__notes__erase", server: "notes", tool: "erase", inputSchema: { type: "object" }, readOnly: false, autoApproved: false, destructive: true };
const read: OfferedTool = { name: "mcp__notes__read", server: "notes", tool: "read", inputSchema: { type: "object", properties: {} }, readOnly: true, autoApproved: false, destructive: false };

function setup(result: CallToolResult | Error = { content: [{ type: "text", text: "ok" }] }) {
  const table = createPendingTable({ broadcast: () => undefined, log: () => undefined });
  const interaction = createUserInteraction(table);
  const calls: { name: string; args: Record<string, unknown>; sessionId: string }[] = [];
  const media: { sessionId: string; bytes: string; mimeType: string }[] = [];
  const granted = new Set<string>();
  const updates: McpToolCall[] = [];
  const mcp = createMcpToolSource({
    mcpTools: {
      tools: () => [write, read, erase],
      call: async (name, args, context) => {
        calls.push({ name, args, sessionId: context.sessionId });
        if (result instanceof Error) throw result;
        return result;
      },
    },
    interaction,
    grants: {
      has: async (sessionId, server, tool) => granted.has(`${sessionId}/${server}/${tool}`),
      add: async (sessionId, server, tool) => void granted.add(`${sessionId}/${server}/${tool}`),
    },
    putMedia: async (sessionId, bytes, mimeType) => {
      media.push({ sessionId, bytes: bytes.toString("utf8"), mimeType });
      return `media-${media.length}`;
    },
    log: () => undefined,
  });
  const context = (signal = new AbortController().signal) => ({ sessionId: "s1", signal, update: async (next: { mcp?: McpToolCall }) => void updates.push(next.mcp!) });
  return { mcp, table, calls, media, granted, updates, context };
}

describe("MCP tool calls [mcp-tool-call]", () => {
  it("offers each tool with its server's schema, and a description when the server gave none", () => {
    expect(setup().mcp.list()).toEqual([
      { name: "mcp__notes__write", description: "Writes", parameters: { type: "object" } },
      { name: "mcp__notes__read", description: "read from the MCP server notes", parameters: { type: "object", properties: {} } },
      { name: "mcp__notes__erase", description: "erase from the MCP server notes", parameters: { type: "object" } },
    ]);
  });

  it("reads server and tool back from a name no server offers, at the first __", () => {
    expect([splitToolName("mcp__files__read__all"), splitToolName("mcp__lonely")]).toEqual([
      { server: "files", tool: "read__all" },
      { server: "lonely", tool: "" },
    ]);
    expect(setup().mcp.describe!("mcp__notes__write")).toEqual({ mcp: { server: "notes", tool: "write" } });
  });

  it("[mcp-approval] a dismissed approval is a denial: TOOL_DENIED, the tool never called", async () => {
    const { mcp, table, calls, updates, context } = setup();
    const running = mcp.execute("mcp__notes__write", { a: 1 }, context());
    await new Promise((resolve) => setImmediate(resolve));
    await table.respond({ type: "cancel", rpcId: table.replay()[0]!.rpcId, sessionId: "s1" });
    const error = { name: "ToolError", code: "TOOL_DENIED", message: "the human dismissed the approval request without allowing this call" };
    expect(await running).toEqual({ isError: true, text: formatToolErrorText(error), error });
    expect(calls).toEqual([]);
    expect(updates).toEqual([
      { server: "notes", tool: "write", approval: "asking" },
      { server: "notes", tool: "write", approval: "denied" },
    ]);
  });

  it("[mcp-approval] asks for a tool the server marks destructive with the approval marked so, and for any other without the mark", async () => {
    const { mcp, table, context } = setup();
    const erasing = mcp.execute("mcp__notes__erase", { all: true }, context());
    const writing = mcp.execute("mcp__notes__write", { a: 1 }, context());
    await new Promise((resolve) => setImmediate(resolve));
    expect(table.replay().map((frame) => frame.approval)).toEqual([
      { server: "notes", tool: "erase", arguments: '{"all":true}', destructive: true },
      { server: "notes", tool: "write", arguments: '{"a":1}' },
    ]);
    for (const frame of table.replay()) await table.respond({ type: "cancel", rpcId: frame.rpcId, sessionId: "s1" });
    expect((await Promise.all([erasing, writing])).map((outcome) => outcome.error?.code)).toEqual(["TOOL_DENIED", "TOOL_DENIED"]);
  });

  it("[mcp-approval] a turn stopped while asking ends ASK_ABORTED without calling the tool", async () => {
    const { mcp, calls, context } = setup();
    const controller = new AbortController();
    const running = mcp.execute("mcp__notes__write", {}, context(controller.signal));
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect((await running).error?.code).toBe("ASK_ABORTED");
    expect(calls).toEqual([]);
  });

  it("[mcp-grants] a grant is per chat: Allow for this chat in s1 leaves other chats asking", async () => {
    const { mcp, table, granted, context } = setup();
    const running = mcp.execute("mcp__notes__write", { a: 1 }, context());
    await new Promise((resolve) => setImmediate(resolve));
    const request = table.replay()[0]!;
    expect(request.approval).toEqual({ server: "notes", tool: "write", arguments: '{"a":1}' });
    await table.respond({ type: "answer", rpcId: request.rpcId, sessionId: "s1", answers: approvalAnswer({ kind: "allow-for-chat" }) });
    expect((await running).isError).toBe(false);
    expect([...granted]).toEqual(["s1/notes/write"]);
  });

  it("[mcp-tool-row] turns every kind of content into a row block and model text, storing images through the host", async () => {
    const result: CallToolResult = {
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: Buffer.from("png-bytes").toString("base64"), mimeType: "image/png" },
        { type: "audio", data: Buffer.from("abcd").toString("base64"), mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside a" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA", mimeType: "application/zip" } },
        { type: "resource_link", uri: "file:///c.txt", name: "c.txt" },
      ],
    };
    const { mcp, media, context } = setup(result);
    expect(await mcp.execute("mcp__notes__read", {}, context())).toEqual({
      isError: false,
      text: "hello\n[image image/png]\n[audio audio/wav]\n[resource file:///a.txt]\ninside a\n[resource file:///b.bin]\napplication/zip content\n[resource link file:///c.txt]",
      outcome: {
        kind: "mcp-result",
        content: [
          { type: "text", text: "hello" },
          { type: "image", mediaId: "media-1", mimeType: "image/png" },
          { type: "other", label: "Audio audio/wav", text: "4 bytes" },
          { type: "other", label: "Resource file:///a.txt", text: "inside a" },
          { type: "other", label: "Resource file:///b.bin", text: "application/zip content" },
          { type: "other", label: "Resource link file:///c.txt", text: "c.txt" },
        ],
      },
    });
    expect(media).toEqual([{ sessionId: "s1", bytes: "png-bytes", mimeType: "image/png" }]);
  });

  it("[mcp-media] stores an image of exactly the cap and refuses a larger one with a labelled block", async () => {
    const base64Of = (bytes: number) => Buffer.alloc(bytes, 1).toString("base64");
    const { mcp, media, context } = setup({
      content: [
        { type: "image", data: base64Of(MCP_IMAGE_MAX_BYTES), mimeType: "image/png" },
        { type: "image", data: base64Of(MCP_IMAGE_MAX_BYTES + 1), mimeType: "image/jpeg" },
      ],
    });
    expect(MCP_IMAGE_MAX_BYTES).toBe(5_242_880);
    expect(await mcp.execute("mcp__notes__read", {}, context())).toEqual({
      isError: false,
      text: "[image image/png]\n[image image/jpeg not stored: 5242881 bytes is more than the 5242880-byte limit]",
      outcome: {
        kind: "mcp-result",
        content: [
          { type: "image", mediaId: "media-1", mimeType: "image/png" },
          { type: "other", label: "Image image/jpeg", text: "not stored: 5242881 bytes is more than the 5242880-byte limit" },
        ],
      },
    });
    expect(media.map((stored) => [stored.mimeType, stored.bytes.length])).toEqual([["image/png", MCP_IMAGE_MAX_BYTES]]);
  });

  it("shows structured content as a labelled block when the server sent no content", async () => {
    const { mcp, context } = setup({ content: [], structuredContent: { count: 2 } });
    expect(await mcp.execute("mcp__notes__read", {}, context())).toEqual({
      isError: false,
      text: '{"count":2}',
      outcome: { kind: "mcp-result", content: [{ type: "other", label: "Structured content", text: '{"count":2}' }] },
    });
  });

  it("reports a failed connection as MCP_SERVER_UNAVAILABLE and arguments that are not an object as INVALID_ARGS", async () => {
    const { mcp, context } = setup(new McpCallError("TOOL_FAILED", "the MCP server notes is not ready"));
    const unavailable = { name: "McpCallError", code: "MCP_SERVER_UNAVAILABLE", message: "the MCP server notes is not ready" };
    expect(await mcp.execute("mcp__notes__read", {}, context())).toEqual({ isError: true, text: formatToolErrorText(unavailable), error: unavailable });
    const invalid = { name: "ToolError", code: "INVALID_ARGS", message: "arguments must be a JSON object" };
    expect(await mcp.execute("mcp__notes__read", [1, 2], context())).toEqual({ isError: true, text: formatToolErrorText(invalid), error: invalid });
  });
});

describe("an approval's answer written into its call's row as it is accepted [respond-durable]", () => {
  const asking = { callId: "c1", name: "mcp__notes__write", args: {}, status: "running" as const, mcp: { server: "notes", tool: "write", approval: "asking" as const } };
  const denied = (message: string) => ({ isError: true, text: formatToolErrorText({ name: "ToolError", code: "TOOL_DENIED", message }), error: { name: "ToolError", code: "TOOL_DENIED", message } });

  it("makes a denial or a dismissal the call's outcome, and records an allow on the row while the call goes on", () => {
    const { mcp } = setup();
    expect([
      mcp.settle!(asking, { answers: approvalAnswer({ kind: "deny", reason: "not now" }) }),
      mcp.settle!(asking, "cancelled"),
      mcp.settle!(asking, { answers: approvalAnswer({ kind: "allow-once" }) }),
      mcp.settle!(asking, { answers: approvalAnswer({ kind: "allow-for-chat" }) }),
    ]).toEqual([
      { patch: { mcp: { server: "notes", tool: "write", approval: "denied", reason: "not now" } }, outcome: denied("the human denied this call: not now") },
      { patch: { mcp: { server: "notes", tool: "write", approval: "denied" } }, outcome: denied("the human dismissed the approval request without allowing this call") },
      { patch: { mcp: { server: "notes", tool: "write", approval: "allowed-once" } } },
      { patch: { mcp: { server: "notes", tool: "write", approval: "allowed-for-chat" } } },
    ]);
  });

  it("reads nothing into a row that is not waiting for its approval (a form the running call asked), nor answers that are not an approval's", () => {
    const { mcp } = setup();
    const running = { ...asking, mcp: { ...asking.mcp, approval: "allowed-once" as const } };
    const denied = { ...asking, mcp: { ...asking.mcp, approval: "denied" as const } };
    expect([
      mcp.settle!(running, { answers: approvalAnswer({ kind: "deny" }) }),
      mcp.settle!(running, "cancelled"),
      mcp.settle!(asking, { answers: [{ id: "confirm", selected: ["No"] }] }),
      mcp.settle!(denied, { answers: approvalAnswer({ kind: "allow-once" }) }),
    ]).toEqual([null, null, null, null]);
  });

  it("still makes a denial the outcome of a row its call already marked denied (a host that died before the call's result was written)", () => {
    const { mcp } = setup();
    const marked = { ...asking, mcp: { ...asking.mcp, approval: "denied" as const, reason: "not now" } };
    expect([mcp.settle!(marked, { answers: approvalAnswer({ kind: "deny", reason: "not now" }) }), mcp.settle!({ ...marked, mcp: { ...asking.mcp, approval: "denied" } }, "cancelled")]).toEqual([
      { patch: { mcp: { server: "notes", tool: "write", approval: "denied", reason: "not now" } }, outcome: denied("the human denied this call: not now") },
      { patch: { mcp: { server: "notes", tool: "write", approval: "denied" } }, outcome: denied("the human dismissed the approval request without allowing this call") },
    ]);
  });
});
