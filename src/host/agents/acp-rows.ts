import type { SessionUpdate, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { AcpRowData, ToolStatus } from "../../protocol/schemas";
import { mergeToolCall, type KnownToolCall } from "../acp/permission";
import type { AgentReport } from "../sessions/agent";
import type { StoredMessage } from "../store";

/** The longest thought or message text kept in one row; more is cut (a runaway agent cannot fill the store). */
export const ACP_ROW_TEXT_CHARS = 1_000_000;

export const ACP_ROW_NAMES = { tool: "acp/tool", thought: "acp/thought", plan: "acp/plan", session: "acp/session" } as const;

type AcpToolRow = Extract<AcpRowData, { type: "tool" }>;

/** A row's status from an ACP tool call status. */
export function toolStatusOf(status: string | null | undefined): ToolStatus {
  if (status === "completed") return "ok";
  if (status === "failed") return "error";
  return "running";
}

/** An ACP data row: a tool row whose `tool.acp` holds what the agent sent. */
export function acpRow(report: Pick<AgentReport, "newId">, sessionId: string, data: AcpRowData, status: ToolStatus, callId?: string): StoredMessage {
  return {
    id: report.newId(),
    sessionId,
    role: "tool",
    createdAt: new Date().toISOString(),
    tool: { callId: callId ?? report.newId(), name: ACP_ROW_NAMES[data.type], args: {}, status, acp: data },
  };
}

/**
 * Writes a row that changes often (streamed thought, a tool call's updates): one write at a time, and while one is in flight only
 * the newest version waits, so a flood of updates costs a bounded number of writes and the last one always lands. A failed
 * write goes to `onFailed` and the row's next version is still written: the transcript has already shown the failed one and
 * writes it again until storage takes it (the newest version, as an insert while the row's insert has not landed).
 */
export function createCoalescingWriter(report: Pick<AgentReport, "write">, onFailed: (row: StoredMessage, error: unknown) => void) {
  const queued = new Map<string, { row: StoredMessage; insert: boolean }>();
  const inFlight = new Map<string, Promise<void>>();
  /** The latest insert: a new row is inserted after the rows before it, so the transcript keeps their order on any store. */
  let inserted: Promise<unknown> = Promise.resolve();
  function drain(id: string): Promise<void> {
    const next = queued.get(id);
    if (!next) {
      inFlight.delete(id);
      return Promise.resolve();
    }
    queued.delete(id);
    const write = next.insert ? inserted.then(() => report.write(next.row, true)) : report.write(next.row, false);
    const settled = write.catch((error: unknown) => onFailed(next.row, error));
    if (next.insert) inserted = settled;
    const run = settled.then(() => drain(id));
    inFlight.set(id, run);
    return run;
  }
  return {
    /** Resolves once this row's newest version has been written or has failed; never rejects. */
    write(row: StoredMessage, insert: boolean): Promise<void> {
      const earlier = queued.get(row.id);
      queued.set(row.id, { row, insert: insert || (earlier?.insert ?? false) });
      return inFlight.get(row.id) ?? drain(row.id);
    },
    /**
     * Inserts a row this writer does not coalesce (a streamed reply) in the same order as its own inserts: after every row
     * inserted before it, and before any inserted after it, so stored and shown rows keep the order the agent spoke in.
     * Rejects when the write fails.
     */
    insert(row: () => StoredMessage): Promise<void> {
      const write = inserted.then(() => report.write(row(), true));
      inserted = write.catch(() => undefined);
      return write;
    },
    /** Resolves once every row's last version is written (or its write failed). */
    async flush(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
  };
}

/**
 * One prompt's rows: the agent's reply streamed into assistant rows, thoughts, tool calls and the plan as ACP rows. A reply row
 * closes when something else arrives, so the transcript keeps the order the agent spoke in.
 */
export function createTurnRows(report: AgentReport, sessionId: string, stopped: () => boolean) {
  /**
   * This turn's tool rows by the agent's tool call id, so an update lands in its row. Only this turn's: a chat's calls are
   * not held for as long as its session lives, and an id an agent uses again in a later turn is a new call.
   */
  const tools = new Map<string, StoredMessage>();
  /** The last raw input each of them came with: a permission request about one may come without it. */
  const rawInputs = new Map<string, unknown>();
  /** The turn's first failed write: the turn goes on (the tabs have every row), and `close` reports it. */
  let failure: { error: unknown } | null = null;
  const noteFailure = (error: unknown) => {
    failure ??= { error };
  };
  const writer = createCoalescingWriter(report, (_row, error) => noteFailure(error));
  const step = report.newId();
  /** The open reply row, and whether its insert has been shown to the tabs: until then its text goes with the insert, not as deltas. */
  let reply: { row: StoredMessage; shown: boolean } | null = null;
  let replyWrite: Promise<void> = Promise.resolve();
  let thought: StoredMessage | null = null;
  let plan: StoredMessage | null = null;

  function closeReply() {
    if (!reply) return;
    const final: StoredMessage = { ...reply.row, streaming: false };
    report.streaming(reply.row, false);
    reply = null;
    replyWrite = replyWrite.then(() => report.write(final, false).catch(noteFailure));
  }

  /** Opens a reply row, queued among the turn's other inserts. */
  function openReply(): { row: StoredMessage; shown: boolean } {
    const row: StoredMessage = { id: report.newId(), sessionId, role: "assistant", createdAt: new Date().toISOString(), text: "", step, streaming: true };
    const opened = { row, shown: false };
    report.streaming(row, true);
    // Written with the text it has when its turn in the chain comes; what streamed in while it was written follows as one
    // delta. The tabs never get a delta of a row they have not been shown.
    let shownChars = 0;
    const inserted = writer
      .insert(() => {
        shownChars = (row.text ?? "").length;
        return { ...row };
      })
      .catch(noteFailure)
      .finally(() => {
        opened.shown = true;
        const rest = (row.text ?? "").slice(shownChars);
        if (rest !== "") report.delta(row, rest);
      });
    replyWrite = replyWrite.then(() => inserted);
    return opened;
  }

  function appendReply(text: string) {
    if (text === "") return;
    thought = null;
    reply ??= openReply();
    const { row } = reply;
    if ((row.text ?? "").length >= ACP_ROW_TEXT_CHARS) return;
    row.text = (row.text ?? "") + text;
    if (reply.shown) report.delta(row, text);
  }

  function appendThought(text: string) {
    if (text === "") return;
    closeReply();
    const current = thought;
    const before = current?.tool?.acp?.type === "thought" ? current.tool.acp.text : "";
    if (before.length >= ACP_ROW_TEXT_CHARS) return;
    const row = current ? { ...current } : acpRow(report, sessionId, { type: "thought", text: "" }, "ok");
    row.tool = { ...row.tool!, acp: { type: "thought", text: before + text } };
    thought = row;
    void writer.write(row, current === null);
  }

  function toolCall(update: ToolCallUpdate) {
    closeReply();
    thought = null;
    const known = tools.get(update.toolCallId);
    const previous = known?.tool?.acp?.type === "tool" ? known.tool.acp : undefined;
    const data: AcpToolRow = { type: "tool", call: mergeToolCall(previous?.call, update), status: update.status ?? previous?.status ?? "pending" };
    const row: StoredMessage = known ? { ...known } : acpRow(report, sessionId, data, "running", update.toolCallId);
    // A call that fails once the turn was stopped failed because of the stop (its permission retired, its work cut short):
    // it reads stopped, so every tab tells the turn was stopped, not that the agent ended it. An update without a status
    // keeps the row's.
    const status = update.status === "failed" && stopped() ? "stopped" : update.status || !known?.tool ? toolStatusOf(data.status) : known.tool.status;
    row.tool = { ...row.tool!, status, acp: data };
    tools.set(update.toolCallId, row);
    if (update.rawInput !== undefined) rawInputs.set(update.toolCallId, update.rawInput);
    void writer.write(row, known === undefined);
  }

  function setPlan(entries: Extract<AcpRowData, { type: "plan" }>["entries"]) {
    closeReply();
    const row = plan ? { ...plan } : acpRow(report, sessionId, { type: "plan", entries }, "ok");
    row.tool = { ...row.tool!, acp: { type: "plan", entries } };
    const insert = plan === null;
    plan = row;
    void writer.write(row, insert);
  }

  return {
    /** What this turn was told of a tool call so far, for a permission request that names it with only some fields. */
    known(toolCallId: string): KnownToolCall | undefined {
      const acp = tools.get(toolCallId)?.tool?.acp;
      return acp?.type === "tool" ? { call: acp.call, rawInput: rawInputs.get(toolCallId) } : undefined;
    },
    /** Takes a content update of the turn; returns false for one that is not a row (session state, commands, modes). */
    take(update: SessionUpdate): boolean {
      switch (update.sessionUpdate) {
        case "agent_message_chunk":
          if (update.content.type === "text") appendReply(update.content.text);
          return true;
        case "agent_thought_chunk":
          if (update.content.type === "text") appendThought(update.content.text);
          return true;
        case "tool_call":
        case "tool_call_update":
          toolCall(update);
          return true;
        case "plan":
          setPlan(update.entries.map((entry) => ({ content: entry.content, status: entry.status, ...(entry.priority ? { priority: entry.priority } : {}) })));
          return true;
        default:
          return false;
      }
    },
    /**
     * Ends the turn's rows: the reply closed, tool calls of this turn still running marked stopped (the turn ended before
     * they did, however it ended). Rejects with the turn's first failed write once every row is settled, so the user is
     * told storage failed.
     */
    async close() {
      closeReply();
      for (const [id, row] of tools) {
        if (row.tool?.status !== "running") continue;
        const ended: StoredMessage = { ...row, tool: { ...row.tool, status: "stopped" } };
        tools.set(id, ended);
        void writer.write(ended, false);
      }
      await writer.flush();
      await replyWrite;
      if (failure) throw failure.error;
    },
  };
}
