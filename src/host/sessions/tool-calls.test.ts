import { describe, expect, it } from "vitest";
import { approvalAnswer, type ApprovalDecision } from "../../protocol/approval";
import { createMcpToolSource } from "../mcp-client/tool-source";
import type { OfferedTool } from "../mcp-client/manager";
import { createPendingTable } from "../pending/pending-table";
import { createUserInteraction } from "../pending/user-interaction";
import { StorageError } from "../storage-error";
import { openStore, type StoredMessage } from "../store";
import { createToolDoor } from "../tools/registry";
import { createToolCalls } from "./tool-calls";
import { createTranscript } from "./transcript";

const write: OfferedTool = { name: "mcp__notes__write", server: "notes", tool: "write", inputSchema: { type: "object" }, readOnly: false, autoApproved: false, destructive: false };

/** A call's tool row as each write to the store left it: status, error code, interrupted, approval. */
type Written = [string, string | undefined, boolean, string | undefined];

/** An MCP call of `write` run as a transcript row on an in-memory store, its approval answered with `decision`; every write of its row, in order. */
/** `failing`: the 0-based numbers of the row writes that fail, as a full disk fails them. */
async function writesOfAnsweredCall(decision: ApprovalDecision | "dismiss", grantAdd: () => Promise<void> = async () => undefined, failing: number[] = []): Promise<Written[]> {
  const store = openStore(":memory:");
  const writes: Written[] = [];
  const note = (message: StoredMessage) => {
    writes.push([message.tool!.status, message.tool!.error?.code, message.interrupted === true, message.tool!.mcp?.approval]);
    if (failing.includes(writes.length - 1)) throw new StorageError("STORAGE_FULL", "the disk is full", null);
  };
  const insertMessage = store.insertMessage.bind(store);
  const updateMessage = store.updateMessage.bind(store);
  store.insertMessage = async (message) => (note(message), insertMessage(message));
  store.updateMessage = async (message) => (note(message), updateMessage(message));
  const at = new Date().toISOString();
  await store.insertSession({ id: "s1", title: "New chat", autoTitle: false, createdAt: at, updatedAt: at });

  const table = createPendingTable({ broadcast: () => undefined, log: () => undefined, commit: (answer) => calls.commitAnswer(answer) });
  const interaction = createUserInteraction(table);
  const source = createMcpToolSource({
    mcpTools: { tools: () => [write], call: async () => ({ content: [{ type: "text", text: "written" }] }) },
    interaction,
    grants: { has: async () => false, add: grantAdd },
    putMedia: async () => "media",
    log: () => undefined,
  });
  const transcript = createTranscript({ store, broadcast: () => undefined, log: () => undefined });
  const calls = createToolCalls({ store, transcript, tools: createToolDoor([source]), log: () => undefined, retitle: async () => undefined });

  const running = calls.run("s1", "step-1", { callId: "c1", name: write.name, arguments: "{}" }, new AbortController().signal);
  const asked = await new Promise<string>((resolve) => {
    const poll = () => (table.replay()[0] ? resolve(table.replay()[0]!.rpcId) : setImmediate(poll));
    poll();
  });
  const body = decision === "dismiss" ? { type: "cancel", rpcId: asked, sessionId: "s1" } : { type: "answer", rpcId: asked, sessionId: "s1", answers: approvalAnswer(decision) };
  expect(await table.respond(body)).toEqual({ accepted: true });
  await running;
  return writes;
}

describe("an approval's answer stays its call's row until the call's end writes it [respond-durable]", () => {
  it.each<[string, ApprovalDecision | "dismiss"]>([
    ["a denial", { kind: "deny", reason: "not now" }],
    ["a dismissal", "dismiss"],
  ])("%s: once written as the call's result, the row is never written back to running", async (_name, decision) => {
    expect(await writesOfAnsweredCall(decision)).toEqual([
      ["running", undefined, false, undefined],
      ["running", undefined, false, "asking"],
      ["error", "TOOL_DENIED", true, "denied"],
      ["error", "TOOL_DENIED", false, "denied"],
    ]);
  });

  it("an allow for the chat whose grant and row could not be written still allows this call: the row never goes back to asking", async () => {
    const full = async () => {
      throw new StorageError("STORAGE_FULL", "the disk is full", null);
    };
    // The grant fails, and so does the row's write of the allow (write 3): the call still runs to its result.
    expect(await writesOfAnsweredCall({ kind: "allow-for-chat" }, full, [3])).toEqual([
      ["running", undefined, false, undefined],
      ["running", undefined, false, "asking"],
      ["running", undefined, false, "allowed-for-chat"],
      ["running", undefined, false, "allowed-for-chat"],
      ["ok", undefined, false, "allowed-for-chat"],
    ]);
  });

  it("an allow is written on the running row, and the call goes on to its result", async () => {
    expect(await writesOfAnsweredCall({ kind: "allow-once" })).toEqual([
      ["running", undefined, false, undefined],
      ["running", undefined, false, "asking"],
      ["running", undefined, false, "allowed-once"],
      ["running", undefined, false, "allowed-once"],
      ["ok", undefined, false, "allowed-once"],
    ]);
  });
});
