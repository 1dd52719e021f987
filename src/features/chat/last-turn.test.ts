import { describe, expect, it } from "vitest";
import type { Message } from "../../protocol/schemas";
import { lastTurn } from "./last-turn";

const user = (id: string, text: string): Message => ({ id, sessionId: "s", role: "user", createdAt: "", text });
const assistant = (id: string, text: string, extra: Partial<Message> = {}): Message => ({ id, sessionId: "s", role: "assistant", createdAt: "", text, ...extra });
const tool = (id: string, status: "running" | "ok" | "error" | "stopped"): Message => ({
  id,
  sessionId: "s",
  role: "tool",
  createdAt: "",
  tool: { callId: id, name: "ask_user_question", args: {}, status },
});

describe("lastTurn", () => {
  it("reads how the turn of the last user message ended", () => {
    expect(lastTurn([user("u1", "hi"), assistant("a1", "hello")])).toEqual({ userMessageId: "u1", userText: "hi", ending: "replied" });
    expect(lastTurn([user("u1", "hi"), assistant("a1", "Error: the model failed: 500", { failure: { code: "MODEL_FAILED" } })])?.ending).toBe("failed");
    expect(lastTurn([user("u1", "hi"), assistant("a1", "Error: ASK_CANCELLED")])?.ending).toBe("replied");
    expect(lastTurn([user("u1", "hi"), assistant("a1", "half a rep", { interrupted: true })])?.ending).toBe("interrupted");
    expect(lastTurn([user("u1", "hi"), tool("t1", "stopped")])?.ending).toBe("stopped-at-tool");
    expect(lastTurn([user("u1", "hi"), tool("t1", "error")])?.ending).toBe("stopped-at-tool");
    expect(lastTurn([user("u1", "hi"), { ...tool("t1", "stopped"), interrupted: true }])?.ending).toBe("interrupted");
    const agentTool = (status: "error" | "stopped"): Message => {
      const row = tool("t1", status);
      return { ...row, tool: { ...row.tool!, acp: { type: "tool", call: { toolCallId: "t1", title: "npm test", kind: "execute" }, status: status === "error" ? "failed" : "in_progress" } } };
    };
    expect(lastTurn([user("u1", "hi"), agentTool("error")])?.ending).toBe("replied");
    expect(lastTurn([user("u1", "hi"), agentTool("stopped")])?.ending).toBe("stopped-at-tool");
    const failedSession = tool("s1", "error");
    const sessionRow: Message = { ...failedSession, tool: { ...failedSession.tool!, acp: { type: "session", agent: "qwen", title: "Qwen Code", cwd: "/srv", state: "failed", error: "spawn qwen ENOENT" } } };
    expect(lastTurn([user("u1", "hi"), sessionRow])?.ending).toBe("replied");
    expect(lastTurn([user("u1", "hi"), tool("t1", "ok"), assistant("a1", "done")])?.ending).toBe("replied");
    expect(lastTurn([assistant("a0", "welcome"), user("u1", "again")])).toEqual({ userMessageId: "u1", userText: "again", ending: "no-reply" });
  });

  it("reads the last user message only, and nothing when there is none", () => {
    expect(lastTurn([user("u1", "one"), assistant("a1", "Error: x"), user("u2", "two"), assistant("a2", "fine")])?.ending).toBe("replied");
    expect(lastTurn([assistant("a0", "Error: x")])).toBeNull();
    expect(lastTurn([])).toBeNull();
  });
});
