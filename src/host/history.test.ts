import { describe, expect, it } from "vitest";
import { buildHistory, STOPPED_TOOL_TEXT } from "./history";
import type { StoredMessage } from "./store";

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
