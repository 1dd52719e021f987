import type { DownFrame } from "../../protocol/schemas";
import type { AnswerRule } from "../pending/answer-rule";
import { leaseHeld, notePayload, notifyAll, type Envelope, type Note, type Statement } from "./channel";
import type { PgStore } from "./store";

/** Runs async jobs one after another; a failed job is reported and the next one still runs. */
export function serial(onError: (error: unknown) => void) {
  let tail: Promise<void> = Promise.resolve();
  return {
    push(job: () => Promise<void>) {
      tail = tail.then(job).catch(onError);
    },
    idle: () => tail,
  };
}

export interface OutboxOptions {
  store: PgStore;
  instance: string;
  /** The rule and the tool row of one of this host's questions, written into its pending row. */
  ruleOf(rpcId: string): AnswerRule | undefined;
  messageOf(rpcId: string): string | undefined;
  /** The sessions whose turns start or run on this host now. */
  ownTurns(): string[];
  /** A send found this host's lease row gone (another host adopted its work): what it held back is lost with it. */
  onAdopted(): void;
  /** A send failed (the database is unreachable). */
  onFailed(error: unknown): void;
  /** A frame was sent (or its send failed): it goes to this host's own listeners now, in order. */
  deliver(frame: DownFrame, rule: AnswerRule | undefined): void;
}

/** The frames a host publishes. */
export interface Outbox {
  /**
   * Sends a frame this host produced to every host, after the one before it. `closes`: the frame only ends what another
   * host held (an adoption's), so it goes whatever this host's own lease.
   */
  publish(frame: DownFrame, closes?: boolean): void;
  /** Waits until every frame published so far reached the database. */
  idle(): Promise<void>;
  /**
   * Publishes again the resolutions whose send failed (they reached only this host's tabs), for a host back from an
   * outage: no other host keeps showing, replaying or counting a question that is over.
   */
  resendFailed(): void;
  /** How many resolutions wait to be sent again. */
  unsent(): number;
}

/**
 * A host's outgoing frames, in order: each frame's pending row is written (a question's row with its rule, a resolution's
 * state, an idle session's turn given back), then the frames are notified, many to a statement, and delivered here.
 */
export function createOutbox(options: OutboxOptions): Outbox {
  const { store, instance } = options;
  const outgoing = serial(options.onFailed);
  /** Frames waiting for the next send; one job is queued for them whenever the batch is not empty. */
  /** `again`: a resolution sent again, which this host's own tabs already had. */
  type Entry = { frame: DownFrame; closes: boolean; again?: boolean };
  let batch: Entry[] = [];
  /** Resolutions whose send failed, by request: `resendFailed` publishes them again. */
  const unsent = new Map<string, Entry>();

  /**
   * What a frame writes before any host hears of it: a question's row with its rule (only while this host's lease row is
   * there, see leaseHeld), a resolution's state, an idle session's turn given back.
   */
  function writeOf(frame: DownFrame, rule: AnswerRule | undefined): Statement | null {
    if (frame.type === "question/requested") {
      return {
        text: `INSERT INTO pending (rpc_id, session_id, owner, frame, rule, message_id) SELECT $1, $2, $3, $4, $5, $6 WHERE ${leaseHeld(3)} ON CONFLICT (rpc_id) DO NOTHING`,
        values: [frame.rpcId, frame.sessionId, instance, JSON.stringify(frame), rule ? JSON.stringify(rule) : null, options.messageOf(frame.rpcId) ?? null],
      };
    }
    if (frame.type === "question/resolved") {
      return { text: "UPDATE pending SET state = $2 WHERE rpc_id = $1 AND state = 'pending'", values: [frame.rpcId, frame.outcome] };
    }
    if (frame.type === "session/upserted" && frame.session.state === "idle" && !options.ownTurns().includes(frame.session.id)) {
      // No turn of the session is starting or running here: its row goes before any host sees the session idle,
      // so a message posted anywhere next is taken. (An idle frame of a rename, say, while a turn is starting keeps it.)
      return { text: "DELETE FROM turns WHERE session_id = $1 AND owner = $2", values: [frame.session.id, instance] };
    }
    return null;
  }

  /**
   * Writes the frames' rows in order, then notifies the frames in order, many to a statement; the last write runs in the
   * first notifying statement (every write before it is done by then), so a lone frame takes one round trip. A frame goes
   * only while this host's lease row is there (a question's row too): a host frozen past its lease and adopted meanwhile
   * leaves behind no question, running session or row that no live host owns, and does not resolve again what its adopter
   * resolved. The frames of an adoption it made still go, so that no host keeps showing what the database has closed.
   */
  async function send(entries: Entry[]) {
    const notes: Note[] = [];
    let held: Statement | null = null;
    for (const entry of entries) {
      const { frame } = entry;
      const rule = frame.type === "question/requested" ? options.ruleOf(frame.rpcId) : undefined;
      const write = writeOf(frame, rule);
      if (write) {
        if (held) await store.query(held.text, held.values, false);
        held = write;
      }
      const payload = await notePayload(store, instance, JSON.stringify({ s: instance, f: frame, ...(rule ? { rule } : {}) } satisfies Envelope));
      notes.push({ payload, leased: !entry.closes });
    }
    if (!(await notifyAll(store, notes, held ?? undefined, instance))) options.onAdopted();
  }

  /** See `Outbox.publish`. */
  function publish(frame: DownFrame, closes = false, again = false) {
    batch.push({ frame, closes, again });
    if (batch.length > 1) return;
    outgoing.push(async () => {
      const entries = batch;
      batch = [];
      try {
        await send(entries);
      } catch (error) {
        for (const entry of entries) if (entry.frame.type === "question/resolved") unsent.set(entry.frame.rpcId, entry);
        throw error;
      } finally {
        // Delivered here even when the send failed: this host's sockets are closed next, and reconcile() repairs the table.
        for (const { frame: sent, again: known } of entries) if (!known) options.deliver(sent, sent.type === "question/requested" ? options.ruleOf(sent.rpcId) : undefined);
      }
    });
  }

  return {
    publish,
    idle: () => outgoing.idle(),
    resendFailed() {
      const entries = [...unsent.values()];
      unsent.clear();
      for (const entry of entries) publish(entry.frame, entry.closes, true);
    },
    unsent: () => unsent.size,
  };
}
