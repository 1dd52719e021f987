import type { Api } from "../client/api";
import { PROTOCOL_VERSION, type DownFrame, type McpServerHealth, type Message, type Receipt, type RespondRequest, type Session } from "../protocol/schemas";
import type { FakeLedger } from "./fake-ledger";

interface FakeApiParts {
  ledger: FakeLedger;
  hostId: () => string;
  health: { model: string; mcp?: McpServerHealth[] };
  now: () => string;
  broadcast: (frame: DownFrame) => void;
  respond: (body: RespondRequest) => Promise<Receipt>;
}

/** The uplink routes of docs/protocol.md over the fake host's memory: sessions, messages, abort, and `respond` as given. */
export function createFakeApi({ ledger, hostId, health, now, broadcast, respond }: FakeApiParts): Api {
  const { sessions, transcripts, sessionOf } = ledger;
  let messageCounter = 0;
  return {
    async health() {
      return { ok: true, hostId: hostId(), protocol: PROTOCOL_VERSION, ...health };
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
      ledger.abortPending(sessionId);
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
      ledger.upsertMessage(message);
      return message;
    },
    async abort(sessionId) {
      return ledger.abortPending(sessionId).length > 0;
    },
    respond,
  };
}
