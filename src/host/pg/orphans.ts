import type { DownFrame } from "../../protocol/schemas";
import type { Logger } from "../log";
import { MESSAGE_COLUMNS, outcomesOf, tellSettled, type Query } from "./adopt";
import type { ClusterView } from "./cluster-view";
import type { MessageRow, PgStore } from "./store";

export interface OrphanSweep {
  /** One look: settles what the view still holds of every host found gone since at least `graceMs` ago. */
  sweep(): Promise<void>;
  /** Starts a look unless one is under way (one at a time, beside the renewals, like the adoption); a failed one is logged. */
  beside(): void;
  /** Resolves once the look under way, if any, is done. */
  idle(): Promise<void>;
}

/**
 * What this host still shows of a host that is gone from `hosts` without anyone telling it (docs/protocol.md,
 * cluster-adopt): the adopter that removed its lease died before its frames went out, or they were lost. A host still
 * found gone `graceMs` (a lease period) after it was first found gone, when an adoption under way has long sent its
 * frames, is settled on this host's own sockets, as its adoption would have told them: each question resolved as its
 * row says, each row the adoption interrupted as stored, each session idle unless a live host's turn holds it. Every
 * host looks for itself; one whose settling fails is settled again at the next look.
 */
export function createOrphanSweep(options: { store: PgStore; instance: string; view: ClusterView; log: Logger; graceMs: number; deliver: (frame: DownFrame, owner: string) => void; now?: () => number }): OrphanSweep {
  const { store, instance, view, log, deliver, graceMs } = options;
  const now = options.now ?? (() => performance.now());
  /** Each host found gone and not yet settled, with when it was first found gone. */
  let goneSince = new Map<string, number>();
  const query: Query = (text, values) => store.query(text, values, false);

  async function settle(owner: string) {
    const questions = view.askedBy(owner);
    const resolved = await outcomesOf(query, questions);
    const sessions = new Set([...view.busyOf(owner), ...questions.map((question) => question.frame.sessionId)]);
    const rows = await query<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE owner = $1 AND interrupted AND session_id = ANY($2) ORDER BY seq`, [owner, [...sessions]]);
    await tellSettled(store, (frame) => deliver(frame, owner), resolved, rows.rows, sessions);
    view.takeBusy(owner);
    log({ event: "cluster/orphans-settled", owner, instance, questions: resolved.size, rows: rows.rows.length, sessions: sessions.size });
  }

  let looking: Promise<void> | null = null;
  const sweep = async () => {
    const owners = view.owners();
    owners.delete(instance);
    if (owners.size === 0) {
      goneSince = new Map();
      return;
    }
    const listed = await query<{ instance: string }>("SELECT instance FROM hosts WHERE instance = ANY($1)", [[...owners]]);
    const live = new Set(listed.rows.map((row) => row.instance));
    const at = now();
    goneSince = new Map([...owners].filter((owner) => !live.has(owner)).map((owner) => [owner, goneSince.get(owner) ?? at]));
    for (const [owner, since] of goneSince) {
      if (at - since < graceMs) continue;
      await settle(owner);
      goneSince.delete(owner);
    }
  };
  return {
    sweep,
    beside() {
      looking ??= sweep()
        .catch((error: unknown) => log({ event: "cluster/orphan-sweep-failed", instance, error: error instanceof Error ? error.message : String(error) }))
        .finally(() => (looking = null));
    },
    idle: async () => void (await looking),
  };
}
