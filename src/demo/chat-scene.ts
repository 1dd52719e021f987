import type { AgentsList } from "../client/agents-api";
import type { AcpRowData, McpServerHealth, Message, PendingRequest, QuestionItem, Session, SessionAgent, ToolCall } from "../protocol/schemas";

/**
 * When a chat last changed, read against the moment the story opens, so its relative time and its sidebar
 * group read true on any day: minutes ago today, an hour of yesterday, or whole days ago.
 */
export type SceneTime = { today: number } | { yesterdayAt: number } | { daysAgo: number };

/** A transcript row of a scene: a message, or a row an ACP agent's session update made (docs/protocol.md `[acp-rows]`). */
export type SceneRow =
  | { role: "user" | "assistant"; text: string }
  | { role: "tool"; acp: AcpRowData; status?: "running" | "ok" | "error" }
  /** A tool call of Parley's agent as its row holds it; `interrupted`: the host running it stopped (Message.interrupted). */
  | { role: "tool"; call: ToolCall; interrupted?: boolean };

/** One chat the fake host holds. */
export interface SceneChat {
  id: string;
  title: string;
  at: SceneTime;
  agent?: SessionAgent;
  /** `running` while its agent works on a turn; idle by default. */
  state?: Session["state"];
  rows?: SceneRow[];
  /** The questions its turn waits on: asked through the fake host once the tab is online, so the chat is pinned under Waiting. */
  waiting?: QuestionItem[];
}

/** One screen of the chat around the composer slot, as a chat story shows it. */
export interface ChatScene {
  /** What `GET /api/health` says of the model and the MCP servers: the first screen and the `/` menu read it. */
  health: { model: string; mcp?: McpServerHealth[] };
  /** The chats in the list, newest first within their day. */
  chats: SceneChat[];
  /** The open chat's id; null opens a new chat. */
  open: string | null;
  /** Text in the open chat's composer as the story opens: a `/` opens the command menu. */
  draft?: string;
  /** `open`: the chat list is open as a drawer over the conversation (its backdrop and Close show on a narrow screen). */
  drawer?: "open";
  /** The chat whose "…" menu opens once the list shows. */
  rowMenu?: string;
  /** The host's ACP agents, which title their chats in the list. */
  agents?: AgentsList;
}

/** What the fake host holds for a scene opened at `now`. */
export interface SceneState {
  sessions: Session[];
  messages: Message[];
  requests: PendingRequest[];
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** The instant a scene time names; a time today never falls before midnight, so it stays under Today. */
export function sceneInstant(at: SceneTime, now: Date): Date {
  const today = startOfDay(now);
  if ("today" in at) return new Date(Math.max(now.getTime() - at.today * MINUTE_MS, today));
  if ("yesterdayAt" in at) return new Date(startOfDay(new Date(today - 1)) + at.yesterdayAt * HOUR_MS);
  return new Date(now.getTime() - at.daysAgo * DAY_MS);
}

/** A tool row's status as the host writes it from an ACP status: completed is ok, failed an error, anything else running. */
function acpStatus(data: AcpRowData): "running" | "ok" | "error" {
  if (data.type !== "tool") return "ok";
  if (data.status === "completed") return "ok";
  return data.status === "failed" ? "error" : "running";
}

function messageOf(chat: SceneChat, row: SceneRow, index: number, createdAt: string): Message {
  const base = { id: `${chat.id}-row-${index + 1}`, sessionId: chat.id, createdAt };
  if (row.role !== "tool") return { ...base, role: row.role, text: row.text };
  if ("call" in row) return { ...base, role: "tool", tool: row.call, ...(row.interrupted ? { interrupted: true } : {}) };
  return { ...base, role: "tool", tool: { callId: `${chat.id}-call-${index + 1}`, name: `acp/${row.acp.type}`, args: {}, status: row.status ?? acpStatus(row.acp), acp: row.acp } };
}

/** The sessions, transcripts and pending requests of a scene opened at `now`. */
export function sceneState(scene: ChatScene, now: Date): SceneState {
  const state: SceneState = { sessions: [], messages: [], requests: [] };
  for (const chat of scene.chats) {
    const at = sceneInstant(chat.at, now).toISOString();
    state.sessions.push({ id: chat.id, title: chat.title, createdAt: at, updatedAt: at, state: chat.state ?? "idle", ...(chat.agent ? { agent: chat.agent } : {}) });
    (chat.rows ?? []).forEach((row, index) => state.messages.push(messageOf(chat, row, index, at)));
    if (chat.waiting) state.requests.push({ rpcId: `${chat.id}-waiting`, sessionId: chat.id, questions: chat.waiting, createdAt: at });
  }
  return state;
}
