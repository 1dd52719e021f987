import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AcpRowData } from "../../protocol/acp-data";
import type { AgentReport } from "../sessions/agent";
import type { StoredMessage, StoredSession } from "../store";
import { TEST_AGENT_ARGS } from "../../testing/acp/test-agent";
import { createTempDirs } from "../../testing/host/temp-dirs";
import { createAcpAgents, type AcpAgents } from "./acp-agent";

const temp = createTempDirs("parley-acp-mode-");
let agents: AcpAgents | null = null;
afterEach(async () => {
  await agents?.close();
  agents = null;
  temp.removeAll();
});

type SessionRow = Extract<AcpRowData, { type: "session" }>;

/** A chat's transcript in memory, whose next read the test can hold back: it answers late what the rows were when it was made. */
function heldTranscript(first: StoredMessage) {
  const rows = new Map<string, StoredMessage>([[first.id, first]]);
  const gates: (() => void)[] = [];
  let holding = false;
  return {
    rows,
    holdNextRead() {
      holding = true;
    },
    releaseRead() {
      gates.shift()?.();
    },
    /** The rows as they are when read; a held read answers them only once released. */
    async read(): Promise<StoredMessage[]> {
      const read = [...rows.values()];
      if (holding) {
        holding = false;
        await new Promise<void>((resolve) => gates.push(resolve));
      }
      return read;
    },
    sessionRows: () => [...rows.values()].flatMap((row) => (row.tool?.acp?.type === "session" ? [row.tool.acp] : [])),
  };
}

function reportInto(rows: Map<string, StoredMessage>): AgentReport {
  let next = 0;
  const write = async (row: StoredMessage) => void rows.set(row.id, row);
  return {
    newId: () => `row-${++next}`,
    write,
    writeAfterFailure: write,
    delta: () => undefined,
    streaming: () => undefined,
    save: write,
    callTool: () => Promise.reject(new Error("no tools here")),
    ask: () => Promise.reject(new Error("no questions here")),
    retitle: async () => undefined,
  };
}

describe("a chat's mode set while its agent session is closed", () => {
  /** A chat whose latest session row (its session closed: no process holds it) says `mode`. */
  function closedChat(mode: string, options: { env?: Record<string, string>; cancelGraceMs?: number; openTimeoutMs?: number } = {}) {
    const logs: { event: string }[] = [];
    const workspace = temp.make();
    mkdirSync(path.join(workspace, "src"), { recursive: true });
    const data: SessionRow = { type: "session", agent: "test", title: "Test Agent", cwd: workspace, state: "ready", mode, modes: [{ id: "default", name: "Default" }, { id: "auto", name: "Auto" }] };
    const stored: StoredMessage = { id: "session-row", sessionId: "chat", role: "tool", createdAt: "2026-12-01T10:00:00.000Z", tool: { callId: "c", name: "acp/session", args: {}, status: "ok", acp: data } };
    const transcript = heldTranscript(stored);
    agents = createAcpAgents({
      config: { file: null, workspaces: [workspace], agents: [{ name: "test", title: "Test Agent", command: process.execPath, args: TEST_AGENT_ARGS, env: options.env ?? {}, disabled: false }] },
      log: (entry) => void logs.push(entry),
      ...(options.cancelGraceMs ? { cancelGraceMs: options.cancelGraceMs } : {}),
      ...(options.openTimeoutMs ? { openTimeoutMs: options.openTimeoutMs } : {}),
      transcript: () => transcript.read(),
      updateRow: async (row) => void transcript.rows.set(row.id, row),
    });
    const session: StoredSession = { id: "chat", title: "Chat", createdAt: stored.createdAt, updatedAt: stored.createdAt, autoTitle: true, revision: 0, agent: { kind: "acp-agent", name: "test", cwd: workspace } };
    return { transcript, logs, agent: agents.forSession(session)! };
  }

  it("reaches the session the next prompt opens, though the prompt came while the mode was still being written", async () => {
    const { transcript, agent } = closedChat("default");

    transcript.holdNextRead();
    const modeSet = agent.setMode!("chat", "auto");
    const turn = agent.prompt({ sessionId: "chat", text: "hello", signal: new AbortController().signal }, reportInto(transcript.rows));
    // Whichever read came first is held: were it the prompt's, it would answer the mode as it was before the change.
    await new Promise((resolve) => setImmediate(resolve));
    transcript.releaseRead();
    await modeSet;
    transcript.releaseRead();
    expect(await turn).toEqual({ reason: "done" });
    expect(transcript.sessionRows().map((row) => [row.state, row.mode])).toEqual([
      ["ready", "auto"],
      ["ready", "auto"],
    ]);
  });

  it("opens the session in the asking mode when the agent no longer offers the chat's mode, rather than failing every prompt", async () => {
    const { transcript, agent, logs } = closedChat("plan");
    expect(await agent.prompt({ sessionId: "chat", text: "hello", signal: new AbortController().signal }, reportInto(transcript.rows))).toEqual({ reason: "done" });
    expect(transcript.sessionRows().map((row) => [row.state, row.mode])).toEqual([
      ["ready", "plan"],
      ["ready", "default"],
    ]);
    expect(logs.filter((entry) => entry.event === "acp/mode-not-offered")).toEqual([{ event: "acp/mode-not-offered", agent: "test", sessionId: expect.any(String), mode: "plan" }]);
  });

  it("a Stop ends a prompt that waits for a mode change, which waits for a start that never ends", async () => {
    const { transcript, agent } = closedChat("default", { env: { TEST_AGENT_NO_SESSION: "1" }, cancelGraceMs: 200 });
    const report = reportInto(transcript.rows);
    const first = new AbortController();
    const firstTurn = agent.prompt({ sessionId: "chat", text: "hello", signal: first.signal }, report);
    await expect.poll(() => transcript.sessionRows().map((row) => row.state)).toEqual(["ready", "starting"]);
    first.abort();
    expect(await firstTurn).toEqual({ reason: "stopped" });
    // The mode waits for the start the stopped prompt left running.
    void agent.setMode!("chat", "auto").catch(() => undefined);
    const second = new AbortController();
    const secondTurn = agent.prompt({ sessionId: "chat", text: "again", signal: second.signal }, report);
    second.abort();
    expect(await secondTurn).toEqual({ reason: "stopped" });
    expect(transcript.sessionRows().map((row) => row.state)).toEqual(["ready", "starting"]);
  });

  it("an agent that never opens the chat's session is ended after the bound: the turn fails naming it, and the next prompt starts a new process", async () => {
    const { transcript, agent, logs } = closedChat("default", { env: { TEST_AGENT_NO_SESSION: "1" }, openTimeoutMs: 300 });
    const report = reportInto(transcript.rows);
    expect(await agent.prompt({ sessionId: "chat", text: "hello", signal: new AbortController().signal }, report)).toEqual({ reason: "failed", code: "AGENT_FAILED" });
    const failed = [...transcript.rows.values()].filter((row) => row.failure);
    expect(failed.map((row) => row.text)).toEqual(["Error: Test Agent did not answer session/new within 300 ms; its process was ended"]);
    expect(await agent.prompt({ sessionId: "chat", text: "again", signal: new AbortController().signal }, report)).toEqual({ reason: "failed", code: "AGENT_FAILED" });
    expect(logs.filter((entry) => entry.event === "acp/agent-ready")).toHaveLength(2);
    expect(logs.filter((entry) => entry.event === "acp/agent-failed").map((entry) => (entry as { error?: string }).error)).toEqual(["did not answer session/new within 300 ms", "did not answer session/new within 300 ms"]);
  });
});
