import type { TurnFailureCode } from "../../protocol/errors";
import type { StoredMessage, StoredSession } from "../store";
import type { ModelToolCall } from "../models/types";
import type { ToolOutcome } from "../tools/registry";
import type { AskRequest, AskResult } from "../pending/user-interaction";

/**
 * The agent seam (docs/architecture.md, Adding an agent kind): the session service runs a chat's turn through the `Agent` its
 * session's kind names. An agent gets a prompt, a stop (the turn's signal) and a mode change; it reports through `AgentReport`
 * alone: the rows it writes, the tool calls and questions it makes, and, as its promise's value, how the turn ended.
 */
export interface Agent {
  /**
   * Runs one turn for `text`, the user's message already in the transcript. Resolves with how the turn ended; rejects only on a
   * failure the agent did not cause (storage), which the session service reports as the turn's error row.
   */
  prompt(turn: AgentTurn, report: AgentReport): Promise<TurnEnd>;
  /** The human chose another mode for the chat (an ACP agent's modes); agents without modes leave it out. */
  setMode?(sessionId: string, mode: string): Promise<void>;
}

export interface AgentTurn {
  sessionId: string;
  text: string;
  /** Aborted by Stop, deletion or shutdown. */
  signal: AbortSignal;
}

/** How a turn ended: the reason, and for a failure its code (MODEL_FAILED, STEP_LIMIT, an agent's own). */
export type TurnEnd = { reason: "done" } | { reason: "stopped" } | { reason: "failed"; code: TurnFailureCode };

/** The one narrow way an agent changes what the human sees. */
export interface AgentReport {
  /** A new id for a row. */
  newId(): string;
  /** Writes and shows a row (insert when new); a failed write rejects, and the row is written once storage is back. */
  write(row: StoredMessage, insert: boolean): Promise<void>;
  /** Writes a row while a failure is being reported: never rejects. */
  writeAfterFailure(row: StoredMessage, insert: boolean): Promise<void>;
  /** Shows text streamed into a row now; while `streaming` holds the row, a fresh load shows its text as it is. */
  delta(row: StoredMessage, text: string): void;
  streaming(row: StoredMessage, active: boolean): void;
  /** Writes a streaming row's text so far without showing it again (the tabs have it from its deltas). */
  save(row: StoredMessage): Promise<void>;
  /** Records a tool call as a tool row, runs it, and writes its end: the outcome the agent reads. */
  callTool(step: string, call: ModelToolCall, signal: AbortSignal): Promise<ToolOutcome>;
  /** Asks the human through the seam, as this session. */
  ask(request: Omit<AskRequest, "sessionId">): Promise<AskResult>;
  /** Titles the chat as the agent named it; a title the human gave stays. */
  retitle(title: string): Promise<void>;
}

/** Which agent runs a session's turns; null for a session an outside caller drives (`/mcp`), whose prompts are refused. */
export interface AgentDirectory {
  forSession(session: StoredSession): Agent | null;
  /**
   * The chat was deleted, on this host or another (its turn here already stopped): every agent lets go of what it kept for
   * it. The directory answers for its agents, since a chat deleted elsewhere has no row left to name its kind.
   */
  forget?(sessionId: string): void;
}
