import { describe, expect, it } from "vitest";
import type { AgentReport } from "../sessions/agent";
import type { StoredMessage } from "../store";
import { createTurnRows } from "./acp-rows";

/** A report that stores every write at once and keeps them in order, with ids counted up. */
function recordingReport() {
  const writes: { insert: boolean; row: StoredMessage }[] = [];
  let next = 0;
  const report = {
    newId: () => `id-${++next}`,
    write: async (row: StoredMessage, insert: boolean) => void writes.push({ insert, row }),
  } as Pick<AgentReport, "newId" | "write"> as AgentReport;
  return { report, writes };
}

const toolCall = (toolCallId: string, title: string) => ({ sessionUpdate: "tool_call" as const, toolCallId, title, kind: "edit" as const, status: "in_progress" as const });

describe("createTurnRows: a prompt's tool rows", () => {
  it("updates a call's row in place within the prompt, stops what still runs at its end, and takes an id used again in a later prompt as a new call", async () => {
    const { report, writes } = recordingReport();
    const first = createTurnRows(report, "chat", () => false);
    first.take(toolCall("call-1", "Edit a.ts"));
    first.take({ sessionUpdate: "tool_call_update", toolCallId: "call-1", status: "completed" });
    first.take(toolCall("call-2", "Run the tests"));
    await first.close();
    const second = createTurnRows(report, "chat", () => false);
    second.take(toolCall("call-1", "Edit b.ts"));
    await second.close();

    const shown = writes.map(({ insert, row }) => [insert ? "insert" : "update", row.id, row.tool?.acp?.type === "tool" ? row.tool.acp.call.title : null, row.tool?.status]);
    expect(shown).toEqual([
      ["insert", "id-2", "Edit a.ts", "running"],
      ["update", "id-2", "Edit a.ts", "ok"],
      ["insert", "id-3", "Run the tests", "running"],
      ["update", "id-3", "Run the tests", "stopped"],
      ["insert", "id-5", "Edit b.ts", "running"],
      ["update", "id-5", "Edit b.ts", "stopped"],
    ]);
  });
});
