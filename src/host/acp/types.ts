import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  JsonRpcId,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionModeState,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { Logger } from "../log";

/** `starting` until the agent answered `initialize`; `idle` when it was stopped (idle, or never started) and starts again on use. */
export type AcpAgentState = "starting" | "ready" | "failed" | "disabled" | "idle";

/** What `GET /api/agents` shows of one agent. */
export interface AcpAgentStatus {
  name: string;
  title: string;
  state: AcpAgentState;
  /** Why it failed: the reason, then the last lines of its stderr. */
  error?: string;
  stderrTail?: string[];
  /** The modes its latest session offered. */
  modes?: { id: string; name: string; description?: string }[];
  /** Whether it answered `initialize` with `loadSession: true`. */
  loadSession?: boolean;
}

/** A `session/request_permission` of the agent, for the human. */
export interface PermissionAsk {
  requestId: JsonRpcId;
  sessionId: string;
  request: RequestPermissionRequest;
  /** Aborts when the agent withdraws the request (`$/cancel_request`), the turn ends or is stopped, or the agent exits. */
  signal: AbortSignal;
}

/** An `elicitation/create` of the agent in form mode, for the human. */
export interface ElicitationAsk {
  requestId: JsonRpcId;
  sessionId: string;
  request: Extract<CreateElicitationRequest, { mode: "form" }>;
  signal: AbortSignal;
}

/**
 * Everything one ACP session's agent sends, as calls. `askPermission` and `elicit` resolve with what goes
 * back to the agent; once their signal aborted the client answers `cancelled` / `cancel` itself.
 */
export interface AcpEvents {
  update(update: SessionUpdate): void;
  askPermission(ask: PermissionAsk): Promise<RequestPermissionResponse>;
  elicit(ask: ElicitationAsk): Promise<CreateElicitationResponse>;
  /** A request this session's panel shows went away before it was answered. */
  requestCancelled(requestId: JsonRpcId): void;
  /** The agent's process ended while this session was open: its state and memory are gone from this process. */
  exited(reason: string, stderrTail: string[]): void;
  /** The agent's process was stopped on purpose (idle, or the host stopping it): this process holds the session no more. */
  stopped(): void;
}

export interface AcpAgentOptions {
  log: Logger;
  /** The working directory of the agent's process (sessions name their own). */
  cwd: string;
  /** The host's environment, from which only the basics are passed on (minimalEnv). */
  hostEnv?: NodeJS.ProcessEnv;
  /** How long `initialize` may take; default 60 s. */
  initializeTimeoutMs?: number;
  /** How long session/new, session/load and session/set_mode may take before the agent counts as hung (60 s). */
  openTimeoutMs?: number;
  /** Stop the process after this long without a session in use; 0 (the default) never. */
  idleMs?: number;
  /** The longest line read from the agent's stdout; longer lines are dropped. Default 32 MiB. */
  maxLineBytes?: number;
  /** How many agent requests may wait for the human at once; more are refused. Default 64. */
  maxOpenRequests?: number;
}

/** A failure of an ACP call: the agent is not running, it exited, or it answered with an error. */
export class AcpAgentError extends Error {
  override readonly name = "AcpAgentError";
  constructor(
    readonly code: "AGENT_DISABLED" | "AGENT_FAILED" | "AGENT_EXITED" | "UNKNOWN_SESSION" | "AGENT_ERROR" | "MODE_UNAVAILABLE" | "WORKSPACE_REFUSED",
    message: string,
  ) {
    super(message);
  }
}


/** What the process keeps of one open session. */
export interface SessionEntry {
  events: AcpEvents;
  mode: string | null;
  modes: SessionModeState | null;
  busy: boolean;
}

export interface NewSessionOptions {
  /** The mode to set after session/new; default `default`, the asking mode, when the agent offers it. */
  mode?: string;
  events: AcpEvents;
}

export interface OpenedSession {
  sessionId: string;
  modes: SessionModeState | null;
  /** For resumeSession: true when the agent loaded the session with its memory, false for a fresh one. */
  restored: boolean;
}
