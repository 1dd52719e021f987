import type { Api } from "../client/api";
import type { MuxConnection, MuxOptions } from "../client/mux";
import { PROTOCOL_VERSION, type McpServerHealth, type Message, type PendingRequest, type ResolvedOutcome, type Session } from "../protocol/schemas";
import { createFakeApi } from "./fake-api";
import { createFakeLedger } from "./fake-ledger";
import { createFakeLinks } from "./fake-links";
import { createFakeRespond, type RespondObserver } from "./fake-respond";
import type { DemoReply } from "./stories";

/** How long a restarted fake host stays away before its successor accepts the socket again. */
export const RESTART_GAP_MS = 50;

export interface FakeHostOptions {
  /** The sessions the host holds when it starts. */
  sessions: readonly Session[];
  /** The transcripts it holds when it starts, rows of every session in one list. */
  messages?: readonly Message[];
  /** What `GET /api/health` says of the model and the MCP servers; the model is `demo` and no server is configured by default. */
  health?: { model: string; mcp?: McpServerHealth[] };
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
  /** In a cluster: the host that held the request died, and this one took its work over (docs/protocol.md, cluster-adopt). */
  loseHolder(rpcId: string): void;
  /** The sockets drop, the request is settled while they are away, and the same host takes them back. */
  resolveWhileAway(rpcId: string): void;
  /** Closes every socket for good. */
  dispose(): void;
}

let hostCounter = 0;

/** The fake host assembled: its memory (fake-ledger), sockets (fake-links), routes (fake-api, fake-respond), and the events a story plays on it. */
export function createFakeHost(options: FakeHostOptions): FakeHost {
  const now = options.now ?? (() => new Date().toISOString());
  let hostId = `demo-host-${++hostCounter}`;
  const links = createFakeLinks(() => [
    { type: "hello", protocol: PROTOCOL_VERSION, hostId },
    ...[...ledger.pending.values()].map((request) => ({ type: "question/requested" as const, ...request })),
    { type: "synced" },
  ]);
  const ledger = createFakeLedger(options.sessions, options.messages ?? [], now, links.broadcast);
  const respond = createFakeRespond(ledger, options.reply, options.observer);
  const api = createFakeApi({ ledger, hostId: () => hostId, health: options.health ?? { model: "demo" }, now, broadcast: links.broadcast, respond });

  return {
    api,
    connect: links.connect,
    ask: ledger.ask,
    resolveElsewhere(rpcId, outcome) {
      const request = ledger.pending.get(rpcId);
      if (!request) return;
      if (outcome === "answered") {
        const answers = request.questions.map((question) => ({ id: question.id, selected: [] }));
        ledger.claim({ accepted: true, rpcId, sessionId: request.sessionId, outcome, answers });
      } else if (outcome === "cancelled") ledger.claim({ accepted: true, rpcId, sessionId: request.sessionId, outcome });
      else ledger.claim({ rpcId, sessionId: request.sessionId, outcome });
    },
    restart() {
      ledger.abortPending();
      links.goAway();
      setTimeout(() => {
        hostId = `demo-host-${++hostCounter}`;
        links.comeBack();
      }, RESTART_GAP_MS);
    },
    loseHolder(rpcId) {
      const request = ledger.pending.get(rpcId);
      if (request) ledger.claim({ rpcId, sessionId: request.sessionId, outcome: "aborted", cause: "host-lost" });
    },
    resolveWhileAway(rpcId) {
      links.goAway();
      const request = ledger.pending.get(rpcId);
      if (request) ledger.claim({ rpcId, sessionId: request.sessionId, outcome: "aborted" });
      setTimeout(() => links.comeBack(), RESTART_GAP_MS);
    },
    dispose: links.dispose,
  };
}
