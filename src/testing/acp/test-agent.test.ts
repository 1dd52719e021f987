import { client, methods, PROTOCOL_VERSION, type RequestPermissionRequest, type SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { createTestAgent } from "./test-agent";

function connect(permission?: (request: RequestPermissionRequest) => unknown) {
  const updates: SessionNotification[] = [];
  const app = client({ name: "test" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => (permission ? permission(params) : { outcome: { outcome: "cancelled" } }) as never);
  const connection = app.connect(createTestAgent({ env: { PATH: "/bin" } }));
  return { agent: connection.agent, updates, close: () => connection.close() };
}

function said(updates: SessionNotification[]): string {
  return updates.map(({ update }) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : "")).join("");
}

describe("the test agent (in memory)", () => {
  it("starts sessions in auto, echoes, switches modes and streams every update kind", async () => {
    const { agent, updates, close } = connect();
    const init = await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const session = await agent.request(methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    expect(session.modes?.currentModeId).toBe("auto");
    expect(await agent.request(methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: "text", text: "hello" }] })).toEqual({ stopReason: "end_turn" });
    expect(said(updates)).toBe("echo: hello");
    await agent.request(methods.agent.session.setMode, { sessionId: session.sessionId, modeId: "default" });
    updates.length = 0;
    await agent.request(methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: "text", text: "/stream" }] });
    expect(updates.map(({ update }) => update.sessionUpdate)).toEqual([
      "agent_thought_chunk",
      "plan",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
      "tool_call",
      "tool_call_update",
      "available_commands_update",
      "current_mode_update",
      "session_info_update",
      "usage_update",
      "agent_message_chunk",
    ]);
    close();
  });

  it("asks for an edit in mode default and acts without asking in auto", async () => {
    const asked: RequestPermissionRequest[] = [];
    const { agent, updates, close } = connect((request) => {
      asked.push(request);
      return { outcome: { outcome: "selected", optionId: "proceed_once" } };
    });
    await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd: "/w", mcpServers: [] });
    await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/permission edit" }] });
    expect(asked).toEqual([]);
    expect(said(updates)).toBe("auto: edit done without asking");
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: "default" });
    updates.length = 0;
    await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/permission edit" }] });
    expect(asked[0]?.toolCall.content?.[0]).toMatchObject({ type: "diff", path: "/w/src/app.ts" });
    expect(said(updates)).toBe('permission: {"outcome":{"outcome":"selected","optionId":"proceed_once"}}');
    close();
  });

  it("ends a qwen-question turn cancelled on session/cancel and leaves its request open", async () => {
    let asked!: () => void;
    const seen = new Promise<void>((resolve) => (asked = resolve));
    const { agent, close } = connect(() => {
      asked();
      return new Promise(() => undefined);
    });
    await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd: "/w", mcpServers: [] });
    const turn = agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/qwen-question" }] });
    await seen;
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await turn).toEqual({ stopReason: "cancelled" });
    close();
  });
});
