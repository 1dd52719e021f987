import { afterEach, describe, expect, it } from "vitest";
import { approvalAnswer, type ApprovalDecision } from "../protocol/approval";
import type { Message, QuestionRequestedFrame, ToolCall } from "../protocol/schemas";
import { api, connect, createSession, type FrameClient } from "../testing/host/harness";
import { removeDataDir, type HostProcess } from "../testing/host/host-process";
import { startMcpHostProcess } from "../testing/host/mcp-host-process";

const hosts: HostProcess[] = [];
const sockets: FrameClient[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  for (const host of hosts.splice(0)) {
    await host.kill("SIGKILL");
    removeDataDir(host.dataDir);
  }
});

/** A host process with the test MCP server, and a socket on it. */
async function startHost(): Promise<{ host: HostProcess; frames: FrameClient }> {
  const host = await startMcpHostProcess();
  hosts.push(host);
  const frames = await connect(host.url);
  sockets.push(frames);
  return { host, frames };
}

/** `kill -9` of the host, and a new one on its data. */
async function restartWithMcp(host: HostProcess): Promise<HostProcess> {
  await host.kill("SIGKILL");
  const restarted = await startMcpHostProcess({}, host.dataDir);
  hosts.push(restarted);
  return restarted;
}

async function toolRow(url: string, sessionId: string): Promise<Message> {
  const messages = ((await api(url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
  return messages.find((message) => message.role === "tool")!;
}

/** The row's state as a restart finds it: status, error code, the model's text's first line, interrupted, approval. */
const summary = (row: Message) => {
  const tool = row.tool as ToolCall;
  return { status: tool.status, code: tool.error?.code, text: tool.result?.split("\n")[0], interrupted: row.interrupted === true, approval: tool.mcp?.approval };
};

describe("a host killed while an MCP call's approval was answered or its call ran [tool-interrupted]", { timeout: 120_000 }, () => {
  it("reads a call killed while it ran as TOOL_INTERRUPTED, never as a question nobody answered", async () => {
    const { host, frames } = await startHost();
    const sessionId = await createSession(host.url);
    await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: '/tool mcp__notes__slow {"ms":60000}' } });
    await frames.waitFor((frame) => frame.type === "message/upserted" && frame.message.sessionId === sessionId && frame.message.tool?.mcp?.approval === "read-only", "the call running");
    const restarted = await restartWithMcp(host);
    expect(summary(await toolRow(restarted.url, sessionId))).toEqual({
      status: "stopped",
      code: "TOOL_INTERRUPTED",
      text: "Error: the human allowed this call, but the host running it stopped before it finished: it may not have run, or not to its end",
      interrupted: true,
      approval: "read-only",
    });
  });

  const decisions: [string, ApprovalDecision, (row: ReturnType<typeof summary>) => void][] = [
    [
      "a denial reads as the denial with its reason",
      { kind: "deny", reason: "not now" },
      (row) => expect({ ...row, interrupted: "either" }).toEqual({ status: "error", code: "TOOL_DENIED", text: "Error: the human denied this call: not now", interrupted: "either", approval: "denied" }),
    ],
    [
      "an allow reads as the call's result or as TOOL_INTERRUPTED, with the approval kept",
      { kind: "allow-once" },
      (row) => expect([["ok", "stopped"].includes(row.status), row.status === "ok" ? "TOOL_INTERRUPTED" : row.code, row.approval]).toEqual([true, "TOOL_INTERRUPTED", "allowed-once"]),
    ],
  ];
  it.each(decisions)("keeps the human's answer to an approval card when the host is killed right after it was accepted: %s", async (_name, decision, check) => {
    const { host, frames } = await startHost();
    const sessionId = await createSession(host.url);
    await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: '/tool mcp__notes__write_note {"name":"n","text":"t"}' } });
    const asked = await frames.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.approval !== undefined, "the approval card");
    const receipt = await api(host.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: approvalAnswer(decision) } });
    expect(receipt.body).toEqual({ accepted: true });
    const restarted = await restartWithMcp(host);
    const row = summary(await toolRow(restarted.url, sessionId));
    expect(row.code).not.toBe("ASK_ABORTED");
    check(row);
  });
});
