import { describe, expect, it } from "vitest";
import type { ToolOutcome } from "../tools/registry";
import { createCallTool } from "./calls";
import type { Extra, McpSession } from "./mcp-session";
import { WAIT_TOOL_NAME } from "./tools";

/** A chat whose one call is asked at once (rpc id "q1") and settles when the test says. */
function heldChat() {
  let settle: (outcome: ToolOutcome) => void = () => {};
  const chat = {
    createSession: () => Promise.resolve({ id: "s1" } as never),
    callTool: (_session: string, _call: unknown, context: { onRequested?(rpcId: string): void }) => {
      context.onRequested?.("q1");
      return new Promise<ToolOutcome>((resolve) => (settle = resolve));
    },
  };
  return { chat, settle: (outcome: ToolOutcome) => settle(outcome) };
}

function mcpSession(): McpSession {
  return { id: "m1", principal: "", clientName: "agent", connectedAt: new Date(0), transport: null as never, parleySession: null, calls: new Map(), tickets: new Map(), inFlight: new Set(), openRequests: 0, lastSeen: 0 };
}

function extra(requestId: number, signal = new AbortController().signal): Extra {
  return { signal, requestId, sendNotification: () => Promise.resolve() };
}

describe("the wait tool's tickets", () => {
  it("keeps an answer for the next wait when the wait that got it was cancelled as it came", async () => {
    const { chat, settle } = heldChat();
    const callTool = createCallTool({ chat, log: () => {}, askingTools: new Set(["ask_user_question"]), waitMs: 1, maxCalls: 10, progressMs: 60_000 });
    const session = mcpSession();
    const waiting = await callTool(session, "ask_user_question", {}, extra(1));
    expect(waiting.content[0]?.text).toContain('{"status":"waiting","ticket":"q1"}');

    const cancelled = new AbortController();
    const slice = callTool(session, WAIT_TOOL_NAME, { ticket: "q1" }, extra(2, cancelled.signal));
    // The answer lands, then the client's cancel of that wait, before the wait returns: the SDK drops a cancelled request's result.
    settle({ isError: false, text: "the answer" });
    cancelled.abort();
    await slice;

    expect(await callTool(session, WAIT_TOOL_NAME, { ticket: "q1" }, extra(3))).toEqual({ content: [{ type: "text", text: "the answer" }] });
    // Returned now, the ticket is kept a while for a wait sent again, no longer counted as waiting.
    expect([...session.tickets.values()].map((ticket) => [ticket.rpcId, ticket.deliveredAt !== null])).toEqual([["q1", true]]);
  });
});
