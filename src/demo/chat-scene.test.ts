import { describe, expect, it } from "vitest";
import { dayGroup } from "../features/sessions/groups";
import { sceneInstant, sceneState, type ChatScene } from "./chat-scene";

const at = (hours: number, minutes = 0) => new Date(2026, 2, 10, hours, minutes);

describe("sceneInstant", () => {
  it("puts minutes ago today under Today even just after midnight, where they stop at midnight", () => {
    expect(sceneInstant({ today: 4 }, at(12))).toEqual(at(11, 56));
    expect(sceneInstant({ today: 40 }, at(0, 10))).toEqual(at(0, 0));
    expect(dayGroup(sceneInstant({ today: 40 }, at(0, 10)).toISOString(), at(0, 10))).toBe("today");
  });

  it("puts an hour of yesterday under Yesterday and whole days ago under Earlier, at any time of day", () => {
    for (const now of [at(0, 1), at(12), at(23, 59)]) {
      expect(dayGroup(sceneInstant({ yesterdayAt: 17 }, now).toISOString(), now), now.toString()).toBe("yesterday");
      expect(dayGroup(sceneInstant({ daysAgo: 3 }, now).toISOString(), now), now.toString()).toBe("earlier");
    }
    expect(sceneInstant({ yesterdayAt: 9 }, at(12))).toEqual(new Date(2026, 2, 9, 9, 0));
  });
});

describe("sceneState", () => {
  const scene: ChatScene = {
    health: { model: "scripted" },
    open: "c1",
    chats: [
      {
        id: "c1",
        title: "Upload retries",
        at: { today: 5 },
        agent: { kind: "acp-agent", name: "qwen", cwd: "/w" },
        state: "running",
        rows: [
          { role: "user", text: "Retry uploads." },
          { role: "tool", acp: { type: "tool", status: "completed", call: { toolCallId: "t1", title: "Edit a.ts", kind: "edit" } } },
          { role: "tool", acp: { type: "tool", status: "failed", call: { toolCallId: "t2", title: "npm test", kind: "execute" } } },
          { role: "tool", acp: { type: "tool", status: "in_progress", call: { toolCallId: "t3", title: "npm test", kind: "execute" } } },
          { role: "tool", acp: { type: "thought", text: "Hmm" } },
        ],
      },
      { id: "c2", title: "Release", at: { daysAgo: 2 }, waiting: [{ id: "day", question: "Which day?" }] },
    ],
  };

  it("builds the sessions, their rows and the questions they wait on, all at the chat's time", () => {
    const now = at(12);
    const { sessions, messages, requests } = sceneState(scene, now);
    const fiveAgo = at(11, 55).toISOString();
    const twoDaysAgo = new Date(now.getTime() - 2 * 24 * 3_600_000).toISOString();
    expect(sessions).toEqual([
      { id: "c1", title: "Upload retries", createdAt: fiveAgo, updatedAt: fiveAgo, state: "running", agent: { kind: "acp-agent", name: "qwen", cwd: "/w" } },
      { id: "c2", title: "Release", createdAt: twoDaysAgo, updatedAt: twoDaysAgo, state: "idle" },
    ]);
    expect(messages[0]).toEqual({ id: "c1-row-1", sessionId: "c1", role: "user", createdAt: fiveAgo, text: "Retry uploads." });
    expect(requests).toEqual([{ rpcId: "c2-waiting", sessionId: "c2", questions: [{ id: "day", question: "Which day?" }], createdAt: twoDaysAgo }]);
  });

  it("writes an ACP row as the host does: named after its type, completed ok, failed an error, anything else running", () => {
    const { messages } = sceneState(scene, at(12));
    expect(messages.slice(1).map((message) => [message.tool?.name, message.tool?.status])).toEqual([
      ["acp/tool", "ok"],
      ["acp/tool", "error"],
      ["acp/tool", "running"],
      ["acp/thought", "ok"],
    ]);
    expect(new Set(messages.map((message) => message.tool?.callId ?? message.id)).size).toBe(messages.length);
  });
});
