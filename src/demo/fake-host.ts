import { ApiError, type Api } from "../client/api";
import type { MuxConnection, MuxOptions } from "../client/mux";
import { judgeResponse, receiptOf, type ResponseVerdict } from "../protocol/response-verdict";
import { ASK_ABORTED_ERROR, ASK_CANCELLED_ERROR } from "../protocol/tool-messages";
import { PROTOCOL_VERSION, type DownFrame, type Message, type PendingRequest, type Receipt, type RespondRequest, type ResolvedOutcome, type Session } from "../protocol/schemas";
import type { DemoReply } from "./stories";

/** How long the `slow` reply keeps a response in flight. */
export const SLOW_REPLY_MS = 3000;

/** The message Chromium gives a `fetch` that never reached the server. */
export const NETWORK_ERROR_MESSAGE = "Failed to fetch";

/** How long a restarted fake host stays away before its successor accepts the socket again. */
export const RESTART_GAP_MS = 50;

/** What the fake host did with one `POST /api/respond`: a receipt, or a failed request. */
export type FakeOutcome = { kind: "receipt"; receipt: Receipt } | { kind: "network-error"; message: string };

/** Told about every response the fake host receives, before and after it answers. */
export interface RespondObserver {
  sent(id: string, body: RespondRequest): void;
  settled(id: string, outcome: FakeOutcome): void;
}

export interface FakeHostOptions {
  /** The sessions the host holds when it starts. */
  sessions: readonly Session[];
  /** How `respond` is answered; read on every response, so a control can change it. */
  reply: () => DemoReply;
  observer?: RespondObserver;
  /** The clock of `createdAt`/`updatedAt`; defaults to the real one. */
  now?: () => string;
}

/** An in-page host: the `Api` and the downlink of docs/protocol.md over memory, for the demo. */
export interface FakeHost {
  api: Api;
  connect(options: MuxOptions): MuxConnection;
  /** The agent calls ask_user_question with this request: the frames of a turn that waits for it. */
  ask(request: PendingRequest): void;
  /** Another tab answered or dismissed the request, or the turn stopped: claimed with this outcome. */
  resolveElsewhere(rpcId: string, outcome: ResolvedOutcome): void;
  /** The host shuts down (aborting what it holds) and a new host process takes the sockets back. */
  restart(): void;
  /** The sockets drop, the request is settled while they are away, and the same host takes them back. */
  resolveWhileAway(rpcId: string): void;
  /** Closes every socket for good. */
  dispose(): void;
}

const TOOL_NAME = "ask_user_question";

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let hostCounter = 0;

/** Frames reach a tab in order and never inside the call that caused them, as over a socket. */
interface Link {
  options: MuxOptions;
  status: "connecting" | "online" | "offline" | "closed";
}

export function createFakeHost(options: FakeHostOptions): FakeHost {
  const now = options.now ?? (() => new Date().toISOString());
  const sessions = new Map(options.sessions.map((session) => [session.id, session]));
  const transcripts = new Map<string, Message[]>();
  const pending = new Map<string, PendingRequest>();
  const toolRows = new Map<string, Message>();
  const links = new Set<Link>();
  let hostId = `demo-host-${++hostCounter}`;
  let away = false;
  let respondCounter = 0;
  let messageCounter = 0;

  const deliver = (link: Link, frame: DownFrame) =>
    setTimeout(() => {
      if (link.status === "online") link.options.onFrame(frame);
    }, 0);
  const broadcast = (frame: DownFrame) => {
    for (const link of links) deliver(link, frame);
  };
  const setStatus = (link: Link, status: Link["status"]) =>
    setTimeout(() => {
      if (link.status === "closed") return;
      link.status = status;
      if (status !== "closed") link.options.onStatus?.(status);
    }, 0);

  function open(link: Link) {
    setStatus(link, "online");
    deliver(link, { type: "hello", protocol: PROTOCOL_VERSION, hostId });
    for (const request of pending.values()) deliver(link, { type: "question/requested", ...request });
    deliver(link, { type: "synced" });
  }

  function upsertSession(sessionId: string, state: Session["state"]) {
    const session = sessions.get(sessionId);
    if (!session) return;
    const next = { ...session, state, updatedAt: now() };
    sessions.set(sessionId, next);
    broadcast({ type: "session/upserted", session: next });
  }

  function upsertMessage(message: Message) {
    const list = transcripts.get(message.sessionId) ?? [];
    const index = list.findIndex((row) => row.id === message.id);
    transcripts.set(message.sessionId, index < 0 ? [...list, message] : list.map((row) => (row.id === message.id ? message : row)));
    broadcast({ type: "message/upserted", message });
  }

  /** docs/protocol.md respond-claim: delete, broadcast `question/resolved`, then settle the waiting call (its tool row). */
  function claim(verdict: Extract<ResponseVerdict, { accepted: true }> | { rpcId: string; sessionId: string; outcome: "aborted" }) {
    pending.delete(verdict.rpcId);
    broadcast({ type: "question/resolved", rpcId: verdict.rpcId, sessionId: verdict.sessionId, outcome: verdict.outcome });
    upsertSession(verdict.sessionId, "running");
    const row = toolRows.get(verdict.rpcId);
    toolRows.delete(verdict.rpcId);
    if (row?.tool) {
      const tool =
        verdict.outcome === "answered"
          ? { ...row.tool, status: "ok" as const, result: JSON.stringify({ answers: verdict.answers }), outcome: { kind: "answered" as const, answers: verdict.answers } }
          : { ...row.tool, status: "error" as const, error: verdict.outcome === "cancelled" ? ASK_CANCELLED_ERROR : ASK_ABORTED_ERROR };
      upsertMessage({ ...row, tool });
    }
    upsertSession(verdict.sessionId, "idle");
  }

  async function respond(body: RespondRequest): Promise<Receipt> {
    const id = `respond-${++respondCounter}`;
    options.observer?.sent(id, body);
    const reply = options.reply();
    if (reply === "slow") await delay(SLOW_REPLY_MS);
    if (reply === "network-error") {
      options.observer?.settled(id, { kind: "network-error", message: NETWORK_ERROR_MESSAGE });
      throw new TypeError(NETWORK_ERROR_MESSAGE);
    }
    // The forced replies reach the host's own refusals: the question already settled, or held under another session.
    const pendingOf = (rpcId: string) => {
      const request = pending.get(rpcId);
      if (reply === "not-pending" || !request) return undefined;
      return reply === "bad-response" ? { ...request, sessionId: `${request.sessionId}-elsewhere` } : request;
    };
    const verdict = judgeResponse(body, pendingOf);
    if (verdict.accepted) claim(verdict);
    const receipt = receiptOf(verdict);
    options.observer?.settled(id, { kind: "receipt", receipt });
    return receipt;
  }

  function sessionOf(sessionId: string): Session {
    const session = sessions.get(sessionId);
    if (!session) throw new ApiError(404, "NOT_FOUND", `no session ${sessionId}`);
    return session;
  }

  const api: Api = {
    async health() {
      return { ok: true, hostId, protocol: PROTOCOL_VERSION, model: "demo" };
    },
    async listSessions(query = {}) {
      const all = [...sessions.values()].filter((session) => query.q === undefined || session.title.toLowerCase().includes(query.q.toLowerCase()));
      return { sessions: all.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1)), next: null };
    },
    async createSession(title = "") {
      const at = now();
      const session: Session = { id: `demo-session-${sessions.size + 1}`, title, createdAt: at, updatedAt: at, state: "idle" };
      sessions.set(session.id, session);
      broadcast({ type: "session/upserted", session });
      return session;
    },
    async getSession(sessionId) {
      return { session: sessionOf(sessionId), messages: transcripts.get(sessionId) ?? [] };
    },
    async deleteSession(sessionId) {
      sessionOf(sessionId);
      for (const request of [...pending.values()]) if (request.sessionId === sessionId) claim({ rpcId: request.rpcId, sessionId, outcome: "aborted" });
      sessions.delete(sessionId);
      transcripts.delete(sessionId);
      broadcast({ type: "session/deleted", sessionId });
    },
    async renameSession(sessionId, title) {
      const session = { ...sessionOf(sessionId), title, updatedAt: now() };
      sessions.set(sessionId, session);
      broadcast({ type: "session/upserted", session });
      return session;
    },
    async postMessage(sessionId, text) {
      sessionOf(sessionId);
      const message: Message = { id: `demo-message-${++messageCounter}`, sessionId, role: "user", createdAt: now(), text };
      upsertMessage(message);
      return message;
    },
    async abort(sessionId) {
      const held = [...pending.values()].filter((request) => request.sessionId === sessionId);
      for (const request of held) claim({ rpcId: request.rpcId, sessionId, outcome: "aborted" });
      return held.length > 0;
    },
    respond,
  };

  return {
    api,
    connect(muxOptions) {
      const link: Link = { options: muxOptions, status: "connecting" };
      links.add(link);
      muxOptions.onStatus?.("connecting");
      if (!away) open(link);
      return {
        get status() {
          return link.status === "closed" ? "offline" : link.status;
        },
        retryNow() {
          if (link.status === "offline" && !away) open(link);
        },
        close() {
          link.status = "closed";
          links.delete(link);
        },
      };
    },
    ask(request) {
      upsertSession(request.sessionId, "running");
      const row: Message = {
        id: `demo-tool-${request.rpcId}`,
        sessionId: request.sessionId,
        role: "tool",
        createdAt: request.createdAt,
        tool: { callId: `call-${request.rpcId}`, name: TOOL_NAME, args: { questions: request.questions }, status: "running" },
      };
      toolRows.set(request.rpcId, row);
      upsertMessage(row);
      pending.set(request.rpcId, request);
      upsertSession(request.sessionId, "waiting");
      broadcast({ type: "question/requested", ...request });
    },
    resolveElsewhere(rpcId, outcome) {
      const request = pending.get(rpcId);
      if (!request) return;
      if (outcome === "answered") {
        const answers = request.questions.map((question) => ({ id: question.id, selected: [] }));
        claim({ accepted: true, rpcId, sessionId: request.sessionId, outcome, answers });
      } else if (outcome === "cancelled") claim({ accepted: true, rpcId, sessionId: request.sessionId, outcome });
      else claim({ rpcId, sessionId: request.sessionId, outcome });
    },
    restart() {
      for (const request of [...pending.values()]) claim({ rpcId: request.rpcId, sessionId: request.sessionId, outcome: "aborted" });
      for (const link of links) setStatus(link, "offline");
      away = true;
      setTimeout(() => {
        away = false;
        hostId = `demo-host-${++hostCounter}`;
        for (const link of links) {
          setStatus(link, "connecting");
          open(link);
        }
      }, RESTART_GAP_MS);
    },
    resolveWhileAway(rpcId) {
      for (const link of links) setStatus(link, "offline");
      away = true;
      const request = pending.get(rpcId);
      if (request) claim({ rpcId, sessionId: request.sessionId, outcome: "aborted" });
      setTimeout(() => {
        away = false;
        for (const link of links) {
          setStatus(link, "connecting");
          open(link);
        }
      }, RESTART_GAP_MS);
    },
    dispose() {
      for (const link of links) link.status = "closed";
      links.clear();
    },
  };
}
