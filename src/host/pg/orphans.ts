import type { DownFrame } from "../../protocol/schemas";
import type { Logger } from "../log";
import { MESSAGE_COLUMNS, outcomesOf, tellSettled, type Query } from "./adopt";
import type { ClusterView } from "./cluster-view";
import type { MessageRow, PgStore } from "./store";

export interface OrphanSweep {
  /** One look: settles what the view still holds of every host found gone at this look and the one before. */
  sweep(): Promise<void>;
}

/**
 * What this host still shows of a host that is gone from `hosts` without anyone telling it (docs/protocol.md,
 * cluster-adopt): the adopter that removed its lease died before its frames went out, or they were lost. A host found gone
 * at two looks in a row (a renewal apart, so an adoption under way has sent its frames by then) is settled on this host's
 * own sockets, as its adoption would have told them: each question resolved as its row says, each row the adoption
 * interrupted as stored, each session idle unless a live host's turn holds it. Every host looks for itself.
 */
export function createOrphanSweep(options: { store: PgStore; instance: string; view: ClusterView; log: Logger; deliver: (frame: DownFrame, owner: string) => void }): OrphanSweep {
  const { store, instance, view, log, deliver } = options;
  let goneBefore = new Set<string>();
  const query: Query = (text, values) => store.query(text, values, false);

  async function settle(owner: string) {
    const questions = view.askedBy(owner);
    const resolved = await outcomesOf(query, questions);
    const sessions = new Set([...view.takeBusy(owner), ...questions.map((question) => question.frame.sessionId)]);
    const rows = await query<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE owner = $1 AND interrupted AND session_id = ANY($2) ORDER BY seq`, [owner, [...sessions]]);
    await tellSettled(store, (frame) => deliver(frame, owner), resolved, rows.rows, sessions);
    log({ event: "cluster/orphans-settled", owner, instance, questions: resolved.size, rows: rows.rows.length, sessions: sessions.size });
  }

  return {
    async sweep() {
      const owners = view.owners();
      owners.delete(instance);
      if (owners.size === 0) {
        goneBefore = new Set();
        return;
      }
      const listed = await query<{ instance: string }>("SELECT instance FROM hosts WHERE instance = ANY($1)", [[...owners]]);
      const live = new Set(listed.rows.map((row) => row.instance));
      const gone = new Set([...owners].filter((owner) => !live.has(owner)));
      const settled = [...gone].filter((owner) => goneBefore.has(owner));
      goneBefore = new Set([...gone].filter((owner) => !settled.includes(owner)));
      for (const owner of settled) await settle(owner);
    },
  };
}
