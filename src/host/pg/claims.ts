import type { AbortClaim } from "../pending/pending-table";
import { CHANNEL, NOTIFY_LIMIT_BYTES } from "./channel";
import type { PgStore } from "./store";

/**
 * How hosts share work through conditional statements (docs/architecture.md, Several hosts): a session's turn is held by
 * one live host at a time, and a pending question is claimed once, by a response or by its owner's abort.
 */
export interface Claims {
  /** Takes the session's turn for this host: false while a live host other than this one holds it. */
  claimTurn(sessionId: string): Promise<boolean>;
  /** Gives the session's turn back (its turn ended here). */
  releaseTurn(sessionId: string): Promise<void>;
  /**
   * The sessions whose turns other hosts hold: live ones, and ones whose lease ran out but whose work no host has taken
   * over yet (their streaming rows are still streaming until then, and taking over publishes each session idle).
   */
  turnsElsewhere(): Promise<string[]>;
  /**
   * Claims a pending question cluster-wide with one conditional UPDATE and, when another host owns it, hands that host the
   * response in the same statement; the owner when this call won, null when it was not pending.
   */
  claim(rpcId: string, outcome: "answered" | "cancelled", body: unknown): Promise<string | null>;
  /**
   * Claims one of this host's questions for an abort with the same conditional UPDATE as a response:
   * won when it was still pending (or was already aborted), else the response that claimed it first.
   */
  claimAbort(rpcId: string): Promise<AbortClaim>;
}

/** The claims of host `instance`; `written` waits until the pending rows of the questions it published are written. */
export function createClaims(store: PgStore, instance: string, written: () => Promise<void>): Claims {
  return {
    async claimTurn(sessionId) {
      const claimed = await store.query(
        `INSERT INTO turns (session_id, owner) VALUES ($1, $2)
         ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, started_at = now()
         WHERE turns.owner = excluded.owner OR turns.owner NOT IN (SELECT instance FROM hosts WHERE lease_until > now())`,
        [sessionId, instance],
      );
      return (claimed.rowCount ?? 0) > 0;
    },
    async releaseTurn(sessionId) {
      await store.query("DELETE FROM turns WHERE session_id = $1 AND owner = $2", [sessionId, instance]);
    },
    async turnsElsewhere() {
      // A host's row goes when another host takes its work over (adopt.ts), so an owner still listed has not been taken over.
      const rows = await store.query<{ session_id: string }>("SELECT session_id FROM turns WHERE owner <> $1 AND owner IN (SELECT instance FROM hosts)", [instance], false);
      return rows.rows.map((row) => row.session_id);
    },
    async claim(rpcId, outcome, body) {
      // The owner's envelope ({s, to, answer}) is made by Postgres around the claimed row and notified as the claim commits;
      // one too large for a notification is written as a large frame in the same statement and its id notified. The claim,
      // the frame and the notification commit together: an accepted answer always reaches its owner's channel.
      const claimed = await store.query<{ owner: string }>(
        `WITH claimed AS (UPDATE pending SET state = $2, response = $3 WHERE rpc_id = $1 AND state = 'pending' RETURNING owner),
         note AS (SELECT owner, json_build_object('s', $4::text, 'to', owner, 'answer', $3::json)::text AS payload FROM claimed),
         large AS (INSERT INTO large_frames (payload) SELECT payload FROM note WHERE owner <> $4 AND octet_length(payload) > $6 RETURNING id)
         SELECT owner, (SELECT pg_notify($5, payload) WHERE owner <> $4 AND octet_length(payload) <= $6) AS small,
           (SELECT pg_notify($5, json_build_object('s', $4::text, 'r', id)::text) FROM large) AS large FROM note`,
        [rpcId, outcome, JSON.stringify(body), instance, CHANNEL, NOTIFY_LIMIT_BYTES],
        false,
      );
      return claimed.rows[0]?.owner ?? null;
    },
    async claimAbort(rpcId) {
      // The question's row is written by the publish queue: an abort is claimed only once it is there.
      await written();
      const aborted = await store.query("UPDATE pending SET state = 'aborted' WHERE rpc_id = $1 AND owner = $2 AND state = 'pending'", [rpcId, instance], false);
      if ((aborted.rowCount ?? 0) > 0) return { won: true };
      const row = await store.query<{ state: string; response: string | null }>("SELECT state, response FROM pending WHERE rpc_id = $1", [rpcId], false);
      const stored = row.rows[0];
      // No row (it was never written) or aborted already (adopted, reconciled): nothing can claim it any more.
      if (!stored || stored.state === "aborted" || stored.response === null) return { won: true };
      return { won: false, response: JSON.parse(stored.response) as unknown };
    },
  };
}
