import type { CreateElicitationResponse, RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import type { SessionAgent } from "../../protocol/schemas";
import type { AcpCommand } from "../../protocol/acp-data";
import { AcpAgentProcess } from "../acp/client";
import { resolveWorkspace, type AgentsConfig } from "../acp/config";
import { acpElicitationContent, acpElicitationQuestions, acpFormRule } from "../acp/elicitation";
import { abortedResponse, dismissedResponse, permissionQuestion, permissionResponse } from "../acp/permission";
import { AcpAgentError, type AcpAgentStatus, type AcpEvents, type ElicitationAsk, type PermissionAsk } from "../acp/types";
import type { Logger } from "../log";
import { UserInteractionError } from "../pending/user-interaction";
import type { Agent, AgentReport } from "../sessions/agent";
import type { StoredMessage, StoredSession } from "../store";
import { plainLabel } from "../../protocol/plain-label";
import { perSession } from "../sessions/session-writes";
import { acpRow, createCoalescingWriter } from "./acp-rows";
import { ABANDONED, errorText, failTurn, runTurn, unlessAbandoned, type Binding, type SessionData } from "./acp-turn";
import { latestSessionRow, rowOfHeld, sessionRowFailed, setLiveMode, storeMode, writeSession } from "./acp-session-row";

/** How long an agent process may sit with no turn, request or call before it is stopped; the next prompt starts it again. */
export const DEFAULT_AGENT_IDLE_MS = 10 * 60_000;
/** How long a stopped turn waits for the agent to end its prompt before the chat lets go of its session. */
export const DEFAULT_CANCEL_GRACE_MS = 15_000;

type AcpSessionAgent = Extract<SessionAgent, { kind: "acp-agent" }>;

export interface AcpAgentsOptions {
  config: AgentsConfig;
  log: Logger;
  /** The session's transcript: where a chat's agent session id and mode are read back after a restart. */
  transcript(sessionId: string): Promise<StoredMessage[]>;
  /** Writes a changed row of a chat no turn runs (its session row's mode) and shows it to every tab. */
  updateRow(row: StoredMessage): Promise<void>;
  hostEnv?: NodeJS.ProcessEnv;
  idleMs?: number;
  initializeTimeoutMs?: number;
  /** How long an agent may take to open or load a session or set its mode before it counts as hung (its process ended). */
  openTimeoutMs?: number;
  /** How long a stopped turn waits for the agent to end its prompt (default 15 s); then the chat lets go of the session. */
  cancelGraceMs?: number;
  /**
   * Other hosts (a cluster) may open a chat's agent session too: before each prompt the chat's latest session row is read,
   * and a session this host holds that another host has opened since is dropped and resumed with session/load.
   */
  shared?: boolean;
  /** This host's cluster instance, recorded on each session row it opens. */
  instance?: string;
}

/** The configured ACP agents (docs/architecture.md, ACP agents): their processes, their chats' sessions, and the Agent of each chat. */
export interface AcpAgents {
  /** The agent of a chat backed by an ACP agent; null for any other chat. */
  forSession(session: StoredSession): Agent | null;
  /** A deleted chat's agent session, if this host holds one, is closed in its process (what the agent sends for it is refused). */
  forget(sessionId: string): void;
  /** One status per configured agent, in config order: `GET /api/agents`. */
  statuses(): AcpAgentStatus[];
  /** Starts every enabled agent in the background, so a wrong config shows at once. */
  startAll(): void;
  /** The session agent of a new chat with `name` in `cwd`, or the rule the request breaks. */
  check(name: string, cwd?: string): { ok: true; agent: AcpSessionAgent } | { ok: false; reason: string };
  /** The cluster instance whose process opened the chat's agent session last; null when none recorded one. */
  hostOf(sessionId: string): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * An agent's commands as the composer's menu and the session row show them: names, descriptions and hints without bidi
 * controls and with whitespace collapsed, as titles are (docs/protocol.md, acp-rows); at most 200, none unnamed.
 */
function commandsOf(commands: readonly { name: string; description?: string | null; input?: { hint?: string } | null }[]): AcpCommand[] {
  return commands.slice(0, 200).flatMap((command) => {
    const name = plainLabel(command.name);
    const description = plainLabel(command.description ?? "");
    const hint = plainLabel(command.input?.hint ?? "");
    return name === "" ? [] : [{ name, ...(description ? { description } : {}), ...(hint ? { hint } : {}) }];
  });
}

/** What an agent sends again of a session's history as it loads it: the transcript has it already. */
const REPLAYED: ReadonlySet<string> = new Set(["user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"]);

function onUpdate(log: Logger, entry: Binding, update: SessionUpdate) {
  // Its state (commands, mode, usage, title) is taken while it loads too: an agent may send it then, and not again.
  if (entry.loading && REPLAYED.has(update.sessionUpdate)) return;
  if (entry.turn?.take(update)) return;
  switch (update.sessionUpdate) {
    case "available_commands_update":
      return writeSession(log, entry, { commands: commandsOf(update.availableCommands) });
    case "current_mode_update":
      return writeSession(log, entry, { mode: update.currentModeId });
    case "usage_update":
      return writeSession(log, entry, { usage: { used: update.used, size: update.size } });
    case "session_info_update":
      if (typeof update.title === "string") entry.report.retitle(update.title).catch((error: unknown) => log({ event: "acp/retitle-failed", sessionId: entry.row.sessionId, error: errorText(error) }));
      return;
    default:
      log({ event: "acp/update-outside-turn", sessionId: entry.row.sessionId, kind: update.sessionUpdate });
  }
}

async function askPermission(log: Logger, entry: Binding, agent: { name: string; title: string }, ask: PermissionAsk): Promise<RequestPermissionResponse> {
  if (ask.request.options.length === 0) {
    // Nothing to choose: a card without a choice would hold the chat until Stop.
    log({ event: "acp/permission-without-options", sessionId: entry.row.sessionId });
    return abortedResponse().response;
  }
  const question = permissionQuestion(agent, ask.request, entry.turn?.known(ask.request.toolCall.toolCallId));
  const signal = entry.turnSignal ? AbortSignal.any([ask.signal, entry.turnSignal]) : ask.signal;
  try {
    const { answers } = await entry.report.ask({ questions: question.questions, origin: question.origin, signal, ...(question.approval ? { approval: question.approval } : {}) });
    const decision = permissionResponse(ask.request, answers);
    if (decision.reason) entry.reasons.push(decision.reason);
    return decision.response;
  } catch (error) {
    if (error instanceof UserInteractionError && error.code === "ASK_CANCELLED") return dismissedResponse(ask.request).response;
    if (!(error instanceof UserInteractionError)) log({ event: "acp/permission-failed", sessionId: entry.row.sessionId, error: errorText(error) });
    return abortedResponse().response;
  }
}

async function elicit(log: Logger, entry: Binding, agent: { name: string; title: string }, ask: ElicitationAsk): Promise<CreateElicitationResponse> {
  const mapped = acpElicitationQuestions(ask.request);
  if (!mapped.ok) {
    log({ event: "acp/elicitation-unsupported", sessionId: entry.row.sessionId, reason: mapped.reason });
    return { action: "decline" };
  }
  const signal = entry.turnSignal ? AbortSignal.any([ask.signal, entry.turnSignal]) : ask.signal;
  try {
    // The rule makes the pending table refuse content the form would not take, so an accepted answer always goes back.
    const { answers } = await entry.report.ask({ questions: mapped.questions, origin: { kind: "acp-agent", name: agent.name, title: agent.title }, signal, rule: acpFormRule(ask.request) });
    const content = acpElicitationContent(ask.request, mapped.questions, answers);
    if (content.ok) return { action: "accept", content: content.content };
    log({ event: "acp/elicitation-content-failed", sessionId: entry.row.sessionId, problem: content.problem });
    return { action: "cancel" };
  } catch (error) {
    return error instanceof UserInteractionError && error.code === "ASK_CANCELLED" ? { action: "decline" } : { action: "cancel" };
  }
}

/**
 * The session row's mode and modes: each mode's name and description kept as titles are, without bidi controls
 * (docs/protocol.md, acp-rows); a mode left with no name goes by its id.
 */
export function modesOf(modes: { currentModeId: string; availableModes: { id: string; name: string; description?: string | null }[] } | null): Partial<SessionData> {
  if (!modes) return {};
  return {
    mode: modes.currentModeId,
    modes: modes.availableModes.map(({ id, name, description }) => {
      const shown = plainLabel(description ?? "");
      return { id, name: plainLabel(name) || id, ...(shown ? { description: shown } : {}) };
    }),
  };
}

/** What one chat's agent session sends, applied to its binding while it is live (`holder.entry`). */
function eventsFor(log: Logger, bindings: Map<string, Binding>, holder: { entry: Binding | null }, agent: { name: string; title: string }): AcpEvents {
  const live = () => holder.entry;
  /** The process holds the session no more: the chat's next prompt binds it afresh (session/load). */
  const release = () => {
    const entry = live();
    if (entry && bindings.get(entry.row.sessionId) === entry) bindings.delete(entry.row.sessionId);
    return entry;
  };
  return {
    update: (update) => {
      const entry = live();
      if (entry) onUpdate(log, entry, update);
    },
    askPermission: (ask) => (live() ? askPermission(log, live()!, agent, ask) : Promise.resolve(abortedResponse().response)),
    elicit: (ask) => (live() ? elicit(log, live()!, agent, ask) : Promise.resolve({ action: "cancel" })),
    requestCancelled: () => undefined,
    exited: (reason, tail) => {
      const entry = release();
      if (entry && !entry.turn) writeSession(log, entry, { state: "failed", error: [reason, ...tail].join("\n").slice(0, 4000) });
    },
    // Stopped for being idle (or by the host): the next prompt starts the process again and resumes the session.
    stopped: () => void release(),
  };
}

/**
 * A deleted chat's agent session is let go of: the agent's process keeps running for other chats, and holds this chat's
 * session no more. A start under way for it (an agent slow to open the session) is let go of as it ends, so what the
 * agent asks for that session later is answered cancelled, never asked on a chat that is gone.
 */
function letGo(bindings: Map<string, Binding>, starting: Promise<Binding> | undefined, sessionId: string): void {
  const release = (entry: Binding | undefined) => {
    if (!entry || bindings.get(sessionId) !== entry) return;
    bindings.delete(sessionId);
    entry.process.closeSession(entry.acpSessionId);
  };
  release(bindings.get(sessionId));
  starting?.then(release, () => undefined);
}

export function createAcpAgents(options: AcpAgentsOptions): AcpAgents {
  const { config, log } = options;
  const cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
  const processes = new Map<string, AcpAgentProcess>();
  for (const agent of config.agents) {
    processes.set(
      agent.name,
      new AcpAgentProcess(agent, {
        log,
        cwd: config.workspaces[0]!,
        ...(options.hostEnv ? { hostEnv: options.hostEnv } : {}),
        idleMs: options.idleMs ?? DEFAULT_AGENT_IDLE_MS,
        ...(options.initializeTimeoutMs ? { initializeTimeoutMs: options.initializeTimeoutMs } : {}),
        ...(options.openTimeoutMs ? { openTimeoutMs: options.openTimeoutMs } : {}),
      }),
    );
  }
  const bindings = new Map<string, Binding>();
  /** Bindings being made, so two prompts of one chat never open two agent sessions. */
  const binding = new Map<string, Promise<Binding>>();

  /** Mode changes, one at a time per chat: a prompt waits for them, so the session it opens has the mode (`setMode`). */
  const modeChanges = perSession();

  /**
   * The chat's session this host holds and its latest session row (read unless this host alone writes it and holds the
   * session). A session another host opened since (a cluster) is dropped: this process's memory of it is behind; a mode
   * another host stored on the row of the one held is given to it first (`rowOfHeld`).
   */
  async function heldSession(sessionId: string): Promise<{ held: Binding | undefined; latest: ReturnType<typeof latestSessionRow> }> {
    const held = bindings.get(sessionId);
    if (!held) return { held, latest: latestSessionRow(await options.transcript(sessionId)) };
    if (!options.shared) return { held, latest: null };
    const { latest, current } = await rowOfHeld(options, held);
    if (current) return bindings.get(sessionId) === held ? { held, latest } : heldSession(sessionId);
    log({ event: "acp/session-moved", sessionId });
    held.abandon();
    return { held: undefined, latest };
  }

  /** The chat's live session: the one held, else the stored one resumed (session/load, or a fresh one), else a new one. */
  async function bind(session: StoredSession, agent: AcpSessionAgent, report: AgentReport): Promise<Binding> {
    const { held, latest } = await heldSession(session.id);
    if (held) {
      held.report = report;
      return held;
    }
    const process = processes.get(agent.name);
    if (!process) throw new AcpAgentError("AGENT_DISABLED", `no agent ${agent.name} is configured`);
    // Checked at each start, not only when the chat was made: a folder taken out of the workspaces since (or gone, or
    // replaced by a link out of them) is no longer one the agent may work in.
    const folder = resolveWorkspace(config, agent.cwd);
    if (!folder.ok) throw new AcpAgentError("WORKSPACE_REFUSED", `the chat's folder ${agent.cwd} is not one an agent may work in now: ${folder.reason}`);
    const cwd = folder.cwd;
    const stored = latest?.data ?? null;
    const mode = stored?.mode ?? agent.mode;
    // The new row starts with what the last one knew of the agent's session: a start that fails or never ends leaves the
    // session for the next prompt to resume, in its mode, and the mode shown.
    const kept: Partial<SessionData> = stored ? { ...(stored.acpSessionId ? { acpSessionId: stored.acpSessionId } : {}), ...(stored.modes ? { modes: stored.modes } : {}) } : {};
    const data: SessionData = { type: "session", agent: agent.name, title: process.config.title, cwd: agent.cwd, state: "starting", ...kept, ...(mode ? { mode } : {}), ...(options.instance ? { host: options.instance } : {}) };
    const holder: { entry: Binding | null } = { entry: null };
    const entry: Binding = {
      process,
      acpSessionId: "",
      row: acpRow(report, session.id, data, "running"),
      data,
      turn: null,
      turnSignal: null,
      loading: false,
      report,
      writer: createCoalescingWriter({ write: (row, insert) => holder.entry?.report.write(row, insert) ?? report.write(row, insert) }, sessionRowFailed(log)),
      reasons: [],
      cancelGraceMs,
      abandon() {
        if (bindings.get(session.id) === entry) bindings.delete(session.id);
        process.closeSession(entry.acpSessionId);
      },
    };
    await report.write(entry.row, true);
    const events = eventsFor(log, bindings, holder, { name: agent.name, title: process.config.title });
    holder.entry = entry;
    try {
      if (stored?.acpSessionId) {
        entry.loading = true;
        const opened = await process.resumeSession(stored.acpSessionId, cwd, { events, ...(mode ? { mode } : {}) });
        entry.loading = false;
        entry.acpSessionId = opened.sessionId;
        writeSession(log, entry, { state: "ready", acpSessionId: opened.sessionId, resumed: opened.restored ? "restored" : "memory-lost", ...modesOf(opened.modes) });
      } else {
        const opened = await process.newSession(cwd, { events, ...(mode ? { mode } : {}) });
        entry.acpSessionId = opened.sessionId;
        writeSession(log, entry, { state: "ready", acpSessionId: opened.sessionId, ...modesOf(opened.modes) });
      }
    } catch (error) {
      holder.entry = null;
      writeSession(log, entry, { state: "failed", error: errorText(error).slice(0, 4000) });
      await entry.writer.flush();
      throw error;
    }
    const current = process.modeOf(entry.acpSessionId);
    if (current) writeSession(log, entry, { mode: current });
    bindings.set(session.id, entry);
    return entry;
  }

  function agentFor(session: StoredSession, agent: AcpSessionAgent): Agent {
    return {
      async prompt({ sessionId, text, signal }, report) {
        let entry: Binding;
        const open = async () => {
          // A mode being set goes first: the session then opens in it. No await between the last look and the binding.
          for (let change = modeChanges.tail(sessionId); change; change = modeChanges.tail(sessionId)) await change;
          // Stopped while it waited: nothing is opened for a turn that is over.
          if (signal.aborted) return null;
          const pending = binding.get(sessionId) ?? bind(session, agent, report);
          binding.set(sessionId, pending);
          return pending.finally(() => binding.delete(sessionId));
        };
        try {
          // An agent that never opens the session (or sets a mode) does not keep the turn starting past a Stop and its grace.
          const bound = await unlessAbandoned(open(), signal, cancelGraceMs);
          if (bound === ABANDONED) log({ event: "acp/cancel-ignored", sessionId, graceMs: cancelGraceMs });
          if (bound === ABANDONED || bound === null) return { reason: "stopped" };
          entry = bound;
        } catch (error) {
          if (signal.aborted) return { reason: "stopped" };
          return failTurn(log, report, sessionId, error);
        }
        entry.report = report;
        return runTurn(log, entry, sessionId, text, signal, report);
      },
      setMode: (sessionId, mode) =>
        modeChanges(sessionId, async () => {
          // A start under way is waited for, so the mode goes to the session it opens rather than being lost behind it.
          await binding.get(sessionId)?.catch(() => undefined);
          const { held, latest } = await heldSession(sessionId);
          if (!held) return storeMode(options, latest, mode);
          await setLiveMode(options, held, mode);
        }),
    };
  }

  return {
    forSession(session) {
      if (session.agent?.kind !== "acp-agent") return null;
      return agentFor(session, session.agent);
    },
    forget: (sessionId) => letGo(bindings, binding.get(sessionId), sessionId),
    statuses: () => [...processes.values()].map((process) => process.status()),
    startAll() {
      for (const process of processes.values()) {
        if (process.status().state === "disabled") continue;
        process.start().catch((error: unknown) => log({ event: "acp/start-failed", agent: process.config.name, error: errorText(error).slice(0, 200) }));
      }
    },
    check(name, cwd) {
      const process = processes.get(name);
      if (!process) return { ok: false, reason: `no agent ${JSON.stringify(name.slice(0, 40))} is configured (GET /api/agents lists them)` };
      if (process.status().state === "disabled") return { ok: false, reason: `the agent ${name} is disabled in the agents config` };
      const folder = resolveWorkspace(config, cwd);
      if (!folder.ok) return folder;
      return { ok: true, agent: { kind: "acp-agent", name, cwd: folder.cwd } };
    },
    hostOf: async (sessionId) => latestSessionRow(await options.transcript(sessionId))?.data.host ?? null,
    async close() {
      await Promise.all([...processes.values()].map((process) => process.close()));
      bindings.clear();
    },
  };
}
