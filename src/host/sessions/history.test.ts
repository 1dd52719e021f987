import { describe, expect, it } from "vitest";
import { answeredRow, buildHistory, STOPPED_TOOL_TEXT, stoppedTool } from "./history";
import type { ToolCall } from "../../protocol/schemas";
import type { StoredMessage } from "../store";

const base = { sessionId: "s", createdAt: "2026-01-01T00:00:00.000Z" };

function toolRow(id: string, step: string, status: "ok" | "error" | "stopped", result?: string): StoredMessage {
  return {
    ...base,
    id,
    role: "tool",
    step,
    rawArgs: `{"n":"${id}"}`,
    tool: { callId: `call-${id}`, name: "t", args: { n: id }, status, ...(result === undefined ? {} : { result }) },
  };
}

describe("buildHistory", () => {
  it("gives each model step one assistant item with the calls of its tool rows, then their results", () => {
    const messages: StoredMessage[] = [
      { ...base, id: "u", role: "user", text: "go" },
      { ...base, id: "a1", role: "assistant", text: "Checking.", step: "one" },
      toolRow("t1", "one", "ok", "first"),
      toolRow("t2", "one", "error", "Error: bad\n{}"),
      toolRow("t3", "two", "stopped"),
      { ...base, id: "a3", role: "assistant", text: "Done.", step: "three" },
    ];
    expect(buildHistory(messages)).toEqual([
      { role: "user", text: "go" },
      {
        role: "assistant",
        text: "Checking.",
        toolCalls: [
          { callId: "call-t1", name: "t", arguments: '{"n":"t1"}' },
          { callId: "call-t2", name: "t", arguments: '{"n":"t2"}' },
        ],
      },
      { role: "tool", callId: "call-t1", name: "t", text: "first", isError: false },
      { role: "tool", callId: "call-t2", name: "t", text: "Error: bad\n{}", isError: true },
      { role: "assistant", text: "", toolCalls: [{ callId: "call-t3", name: "t", arguments: '{"n":"t3"}' }] },
      { role: "tool", callId: "call-t3", name: "t", text: STOPPED_TOOL_TEXT, isError: true },
      { role: "assistant", text: "Done.", toolCalls: [] },
    ]);
  });

  it("names ASK_ABORTED in the text of a stopped row without a result", () => {
    expect(STOPPED_TOOL_TEXT).toBe('Error: ask_user_question was aborted before the user answered\n{"name":"UserInteractionError","code":"ASK_ABORTED"}');
  });
});

describe("answeredRow", () => {
  it("turns a running row into the answer's result, interrupted, which the model reads as the tool's result on the next message", () => {
    const running = toolRow("t1", "one", "ok");
    running.tool = { ...running.tool!, status: "running" };
    const answers = [{ id: "k", selected: ["yes"] }];
    const answered = answeredRow(running, { outcome: { isError: false, text: '{"answers":[{"id":"k","selected":["yes"]}]}', outcome: { kind: "answered", answers } } });
    expect(answered).toEqual({ ...running, interrupted: true, tool: { ...running.tool, status: "ok", result: '{"answers":[{"id":"k","selected":["yes"]}]}', outcome: { kind: "answered", answers } } });
    expect(buildHistory([{ ...base, id: "u", role: "user", text: "go" }, answered, { ...base, id: "u2", role: "user", text: "and now?" }])).toEqual([
      { role: "user", text: "go" },
      { role: "assistant", text: "", toolCalls: [{ callId: "call-t1", name: "t", arguments: '{"n":"t1"}' }] },
      { role: "tool", callId: "call-t1", name: "t", text: '{"answers":[{"id":"k","selected":["yes"]}]}', isError: false },
      { role: "user", text: "and now?" },
    ]);
  });
});

describe("a tool row that never finished, as it ends once its host is gone [tool-interrupted]", () => {
  const call: ToolCall = { callId: "c", name: "mcp__notes__write", args: {}, status: "running", mcp: { server: "notes", tool: "write" } };
  const ended = (tool: ToolCall) => [tool.status, tool.error?.code, tool.result?.split("\n")[0]];

  it("reads ASK_ABORTED while it waited for the human, TOOL_DENIED once denied, TOOL_INTERRUPTED once the call was let run", () => {
    expect([
      ended(stoppedTool({ ...call, name: "ask_user_question", mcp: undefined })),
      ended(stoppedTool({ ...call, mcp: { ...call.mcp!, approval: "asking" } })),
      ended(stoppedTool({ ...call, mcp: { ...call.mcp!, approval: "denied", reason: "not now" } })),
      ...(["allowed-once", "allowed-for-chat", "granted", "read-only", "auto-approved"] as const).map((approval) => ended(stoppedTool({ ...call, mcp: { ...call.mcp!, approval } }))),
    ]).toEqual([
      ["stopped", "ASK_ABORTED", "Error: ask_user_question was aborted before the user answered"],
      ["stopped", "ASK_ABORTED", "Error: ask_user_question was aborted before the user answered"],
      ["stopped", "TOOL_DENIED", "Error: the human denied this call: not now"],
      ...Array.from({ length: 5 }, () => ["stopped", "TOOL_INTERRUPTED", "Error: the human allowed this call, but the host running it stopped before it finished: it may not have run, or not to its end"]),
    ]);
  });

  it("writes an answer that leaves the call running into the row as row data only", () => {
    const running = toolRow("t1", "one", "ok");
    running.tool = { ...running.tool!, status: "running", mcp: { server: "notes", tool: "write", approval: "asking" } };
    expect(answeredRow(running, { patch: { mcp: { server: "notes", tool: "write", approval: "allowed-once" } } })).toEqual({ ...running, tool: { ...running.tool, mcp: { server: "notes", tool: "write", approval: "allowed-once" } } });
  });
});
