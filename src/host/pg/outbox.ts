import type { DownFrame } from "../../protocol/schemas";
import type { AnswerRule } from "../pending/answer-rule";
import { notePayload, notifyAll, type Envelope } from "./channel";
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
  /** This host's lease was adopted: it sends nothing more. */
  lost(): boolean;
  /** A send failed (the database is unreachable). */
  onFailed(error: unknown): void;
  /** A frame was sent (or its send failed): it goes to this host's own listeners now, in order. */
  deliver(frame: DownFrame, rule: AnswerRule | undefined): void;
}

/** The frames a host publishes. */
export interface Outbox {
  /** Sends a frame this host produced to every host, after the one before it. */
  publish(frame: DownFrame): void;
  /** Waits until every frame published so far reached the database. */
  idle(): Promise<void>;
}

/**
 * A host's outgoing frames, in order: each frame's pending row is written (a question's row with its rule, a resolution's
 * state, an idle session's turn given back), then the frames are notified, many to a statement, and delivered here.
 */
export function createOutbox(options: OutboxOptions): Outbox {
  const { store, instance } = options;
  const outgoing = serial(options.onFailed);
  /** Frames waiting for the next send; one job is queued for them whenever the batch is not empty. */
  let batch: DownFrame[] = [];

  /** Writes the frames' pending rows in order, then notifies them in order, many to a statement. */
  async function send(frames: DownFrame[]) {
    if (options.lost()) return;
    const notes: string[] = [];
    for (const frame of frames) {
      const rule = frame.type === "question/requested" ? options.ruleOf(frame.rpcId) : undefined;
      if (frame.type === "question/requested") {
        await store.query(
          "INSERT INTO pending (rpc_id, session_id, owner, frame, rule, message_id) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (rpc_id) DO NOTHING",
          [frame.rpcId, frame.sessionId, instance, JSON.stringify(frame), rule ? JSON.stringify(rule) : null, options.messageOf(frame.rpcId) ?? null],
          false,
        );
      } else if (frame.type === "question/resolved") {
        await store.query("UPDATE pending SET state = $2 WHERE rpc_id = $1 AND state = 'pending'", [frame.rpcId, frame.outcome], false);
      } else if (frame.type === "session/upserted" && frame.session.state === "idle" && !options.ownTurns().includes(frame.session.id)) {
        // No turn of the session is starting or running here: its row goes before any host sees the session idle,
        // so a message posted anywhere next is taken. (An idle frame of a rename, say, while a turn is starting keeps it.)
        await store.query("DELETE FROM turns WHERE session_id = $1 AND owner = $2", [frame.session.id, instance], false);
      }
      notes.push(await notePayload(store, instance, JSON.stringify({ s: instance, f: frame, ...(rule ? { rule } : {}) } satisfies Envelope)));
    }
    await notifyAll(store, notes);
  }

  return {
    publish(frame) {
      batch.push(frame);
      if (batch.length > 1) return;
      outgoing.push(async () => {
        const frames = batch;
        batch = [];
        try {
          await send(frames);
        } finally {
          // Delivered here even when the send failed: this host's sockets are closed next, and reconcile() repairs the table.
          for (const sent of frames) options.deliver(sent, sent.type === "question/requested" ? options.ruleOf(sent.rpcId) : undefined);
        }
      });
    },
    idle: () => outgoing.idle(),
  };
}
