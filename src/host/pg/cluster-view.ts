import { DownFrame, type QuestionRequestedFrame } from "../../protocol/schemas";
import { readRule, type AnswerRule } from "../pending/answer-rule";
import type { PgStore } from "./store";

/** A pending question of the cluster: its frame, the host that asked it, and the rule its answer must also pass. */
export interface ClusterQuestion {
  frame: QuestionRequestedFrame;
  owner: string;
  rule?: AnswerRule;
}

/**
 * What a host knows of the cluster from every host's frames: the pending questions with their owners and rules, and the
 * sessions each host last published running or waiting, which adoption publishes idle when that host dies.
 */
export interface ClusterView {
  /** Keeps the view in step with a frame, whoever produced it. */
  track(frame: DownFrame, owner: string, rule: AnswerRule | undefined): void;
  /** Reads the pending questions from the database again (at start, and after notifications may have been missed). */
  reload(): Promise<void>;
  /** Every pending question, oldest first. */
  pending(): ClusterQuestion[];
  question(rpcId: string): ClusterQuestion | undefined;
  /** A question still pending in the database that this host may not have heard of yet. */
  fetchPending(rpcId: string): Promise<ClusterQuestion | undefined>;
  /** The pending questions a host asked. */
  askedBy(owner: string): ClusterQuestion[];
  /** The sessions a host last published busy, forgotten from now on. */
  takeBusy(owner: string): Set<string>;
  /** The sessions a host last published busy, kept. */
  busyOf(owner: string): Set<string>;
  /** Every host this view holds a pending question or a busy session of. */
  owners(): Set<string>;
}

interface PendingRow {
  owner: string;
  frame: string;
  rule: string | null;
}

/** A pending row as the question it holds (undefined when its frame is not a question). */
function questionOf(row: PendingRow): ClusterQuestion | undefined {
  const frame = DownFrame.parse(JSON.parse(row.frame));
  if (frame.type !== "question/requested") return undefined;
  let stored: unknown = null;
  try {
    stored = row.rule === null ? null : JSON.parse(row.rule);
  } catch {
    stored = { kind: "not JSON" };
  }
  const rule = readRule(stored);
  return { frame, owner: row.owner, ...(rule ? { rule } : {}) };
}

export function createClusterView(store: PgStore): ClusterView {
  const mirror = new Map<string, ClusterQuestion>();
  /** Sessions each host last published as running or waiting: adoption publishes them idle. */
  const lastStates = new Map<string, Set<string>>();
  return {
    track(frame, owner, rule) {
      if (frame.type === "question/requested") mirror.set(frame.rpcId, { frame, owner, ...(rule ? { rule } : {}) });
      else if (frame.type === "question/resolved") mirror.delete(frame.rpcId);
      else if (frame.type === "session/upserted" || frame.type === "session/deleted") {
        const sessionId = frame.type === "session/upserted" ? frame.session.id : frame.sessionId;
        for (const sessions of lastStates.values()) sessions.delete(sessionId);
        if (frame.type === "session/upserted" && frame.session.state !== "idle") lastStates.set(owner, (lastStates.get(owner) ?? new Set()).add(sessionId));
      }
    },
    async reload() {
      const rows = await store.query<PendingRow>("SELECT owner, frame, rule FROM pending WHERE state = 'pending' ORDER BY seq", [], false);
      mirror.clear();
      for (const row of rows.rows) {
        const question = questionOf(row);
        if (question) mirror.set(question.frame.rpcId, question);
      }
    },
    // Oldest first across the cluster: each host's frames arrive in its own order, not interleaved by age.
    pending: () => [...mirror.values()].sort((one, other) => (one.frame.createdAt < other.frame.createdAt ? -1 : one.frame.createdAt > other.frame.createdAt ? 1 : 0)),
    question: (rpcId) => mirror.get(rpcId),
    async fetchPending(rpcId) {
      const row = await store.query<PendingRow>("SELECT owner, frame, rule FROM pending WHERE rpc_id = $1 AND state = 'pending'", [rpcId], false);
      return row.rows[0] ? questionOf(row.rows[0]) : undefined;
    },
    askedBy: (owner) => [...mirror.values()].filter((question) => question.owner === owner),
    takeBusy(owner) {
      const sessions = lastStates.get(owner) ?? new Set<string>();
      lastStates.delete(owner);
      return sessions;
    },
    busyOf: (owner) => new Set(lastStates.get(owner)),
    owners: () => new Set([...[...mirror.values()].map((question) => question.owner), ...[...lastStates].filter(([, sessions]) => sessions.size > 0).map(([owner]) => owner)]),
  };
}
