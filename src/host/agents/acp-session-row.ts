import type { StoredMessage } from "../store";
import type { Logger } from "../log";
import { AcpAgentError } from "../acp/types";
import { ACP_ROW_NAMES } from "./acp-rows";
import { ABANDONED, errorText, unlessAbandoned, type Binding, type SessionData } from "./acp-turn";

/** Where a chat's session rows are read and a changed one written outside a turn (`createAcpAgents`' options). */
export interface SessionRowStore {
  transcript(sessionId: string): Promise<StoredMessage[]>;
  updateRow(row: StoredMessage): Promise<void>;
  log: Logger;
}

/** The chat's latest `acp/session` row and its data: the agent session opened last, by whichever host. */
export function latestSessionRow(rows: StoredMessage[]): { row: StoredMessage; data: SessionData } | null {
  for (let index = rows.length - 1; index >= 0; index--) {
    const acp = rows[index]!.tool?.acp;
    if (rows[index]!.tool?.name === ACP_ROW_NAMES.session && acp?.type === "session") return { row: rows[index]!, data: acp };
  }
  return null;
}

/** Logs a failed write of a chat's session row; the transcript writes it again until storage takes it. */
export const sessionRowFailed = (log: Logger) => (row: StoredMessage, error: unknown) => log({ event: "acp/session-row-failed", sessionId: row.sessionId, error: errorText(error) });

/** Changes the chat's session row that `entry` holds, and writes it (coalesced: the newest version always lands). */
export function writeSession(log: Logger, entry: Binding, data: Partial<SessionData>) {
  entry.data = { ...entry.data, ...data };
  entry.row = { ...entry.row, tool: { ...entry.row.tool!, acp: entry.data, status: entry.data.state === "failed" ? "error" : "ok" } };
  void entry.writer.write(entry.row, false);
}

/** Why a chat's mode was not set: its agent session never opened yet, its agent offers no such mode (those it offers), or the agent refused it. */
export class ModeRefused extends Error {
  override readonly name = "ModeRefused";
  constructor(readonly refusal: "not-started" | { notOffered: string[] } | { agentSaid: string }) {
    super(refusal === "not-started" ? "the chat's agent session has not opened yet" : "notOffered" in refusal ? `the agent offers only ${refusal.notOffered.join(", ")}` : refusal.agentSaid);
  }
}

/**
 * Refuses a mode the session row's agent does not offer; a row that lists no modes is of a session never opened (its first
 * start failed or goes on: no agent session id yet), or of an agent that has none.
 */
function checkOffered(data: SessionData, mode: string): void {
  if (!data.modes || data.modes.length === 0) throw new ModeRefused(data.acpSessionId ? { notOffered: [] } : "not-started");
  if (!data.modes.some((offered) => offered.id === mode)) throw new ModeRefused({ notOffered: data.modes.map((offered) => offered.id) });
}

/** The mode of a chat whose session no process holds: its latest row keeps it, every tab shows it, and the next prompt opens the session so. */
export async function storeMode(options: SessionRowStore, latest: { row: StoredMessage; data: SessionData } | null, mode: string): Promise<void> {
  if (!latest) throw new ModeRefused("not-started");
  checkOffered(latest.data, mode);
  if (latest.data.mode === mode) return;
  const data: SessionData = { ...latest.data, mode };
  await options.updateRow({ ...latest.row, tool: { ...latest.row.tool!, acp: data } });
}

/**
 * Sets the mode of the chat's live session. An agent's refusal is told; a process gone meanwhile, or an agent that does not
 * answer within the Stop grace (the chat then lets go of the session, as after an ignored Stop), leaves the mode to the row,
 * for the prompt that opens the session again.
 */
export async function setLiveMode(options: SessionRowStore, held: Binding, mode: string): Promise<void> {
  checkOffered(held.data, mode);
  const sessionId = held.row.sessionId;
  try {
    const answered = await unlessAbandoned(held.process.setMode(held.acpSessionId, mode), AbortSignal.abort(), held.cancelGraceMs);
    if (answered !== ABANDONED) return writeSession(options.log, held, { mode });
    options.log({ event: "acp/set-mode-ignored", sessionId, graceMs: held.cancelGraceMs });
    held.abandon();
  } catch (error) {
    if (!(error instanceof AcpAgentError)) throw error;
    if (error.code === "AGENT_ERROR") throw new ModeRefused({ agentSaid: error.message });
  }
  // What the session's row has been given so far (a failed state on an exit) lands before the mode is written over it.
  await held.writer.flush();
  return storeMode(options, latestSessionRow(await options.transcript(sessionId)), mode);
}

/**
 * Gives the live session the mode another host stored on its row. A mode the agent refuses is logged and the row shows the
 * mode the session runs in, so no tab shows a mode the agent is not in.
 */
async function followStoredMode(options: SessionRowStore, held: Binding, stored: SessionData): Promise<void> {
  const live = held.data.mode;
  if (stored.mode === undefined || stored.mode === live) return;
  try {
    await setLiveMode(options, held, stored.mode);
  } catch (error) {
    if (!(error instanceof ModeRefused)) throw error;
    options.log({ event: "acp/stored-mode-refused", sessionId: held.row.sessionId, mode: stored.mode, error: error.message });
    writeSession(options.log, held, {});
  }
}

/**
 * In a cluster: the chat's latest session row, and whether it is the one of the session this host holds (`current`), which
 * is then given the mode another host stored on the row (it could not pass the change here). This host's own writes of the
 * row land first, so what is read back differs from them only by another host's.
 */
export async function rowOfHeld(options: SessionRowStore, held: Binding): Promise<{ latest: ReturnType<typeof latestSessionRow>; current: boolean }> {
  await held.writer.flush();
  const latest = latestSessionRow(await options.transcript(held.row.sessionId));
  if (latest?.row.id !== held.row.id) return { latest, current: false };
  await followStoredMode(options, held, latest.data);
  return { latest, current: true };
}
