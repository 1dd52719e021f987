import type { PgStore } from "../pg/store";
import type { PushStore, StoredPushSubscription } from "./push-store";

interface SubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
  owner: string;
  label: string | null;
  hide_text: boolean;
  created_at: string;
}

const toSubscription = (row: SubscriptionRow): StoredPushSubscription => ({
  endpoint: row.endpoint,
  p256dh: row.p256dh,
  auth: row.auth,
  owner: row.owner,
  label: row.label,
  hideText: row.hide_text,
  createdAt: Number(row.created_at),
});

/** How the hosts of a cluster tell each other that the subscriptions changed, so each may keep them between changes. */
export interface SubscriptionSync {
  /** Whether a kept list may be used now: false while the host may be missing the others' notifications. */
  trusted(): boolean;
  /** What is kept may be stale from now on. */
  onStale(listener: () => void): void;
  /** Tells the other hosts that this one changed the subscriptions. */
  changed(): Promise<void>;
}

/**
 * `push_keys` and `push_subscriptions` in a cluster's Postgres database (migration 5), through the store's pool: every
 * host of the cluster signs with the one key pair the first host stored, and sees every device's subscription.
 * With `sync`, the list is read once and kept until a host changes it (every question's push reads it; a change is rare).
 */
export function pgPushStore(store: PgStore, sync?: SubscriptionSync): PushStore {
  const { query } = store;
  /** Bumped whenever the kept list may be stale, so that a read that began before the change is not kept. */
  let generation = 0;
  let kept: StoredPushSubscription[] | null = null;
  const stale = () => {
    generation++;
    kept = null;
  };
  sync?.onStale(stale);
  /** Runs a statement that changes the subscriptions, then tells the other hosts. */
  async function change<T>(write: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await write();
    } finally {
      // Even a write that failed may have been made: read again next time.
      stale();
    }
    await sync?.changed();
    return result;
  }
  const copies = (list: StoredPushSubscription[]) => list.map((subscription) => ({ ...subscription }));
  return {
    async keys(make) {
      const found = await query<{ public_key: string; private_key: string }>("SELECT public_key, private_key FROM push_keys WHERE id = 1", [], false);
      if (!found.rows[0]) {
        const made = make();
        await query("INSERT INTO push_keys (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING", [made.publicKey, made.privateKey]);
      }
      // Hosts starting together may each have made a pair: every one keeps the pair that was stored first.
      const stored = found.rows[0] ?? (await query<{ public_key: string; private_key: string }>("SELECT public_key, private_key FROM push_keys WHERE id = 1", [], false)).rows[0]!;
      return { publicKey: stored.public_key, privateKey: stored.private_key };
    },
    async listSubscriptions() {
      if (kept !== null && sync?.trusted()) return copies(kept);
      const at = generation;
      const rows = await query<SubscriptionRow>("SELECT endpoint, p256dh, auth, owner, label, hide_text, created_at FROM push_subscriptions ORDER BY created_at, endpoint", [], false);
      const list = rows.rows.map(toSubscription);
      if (sync?.trusted() && at === generation) kept = copies(list);
      return list;
    },
    // Only a kept list tells without reading: it is what the table holds while the host gets the others' notifications.
    holdsNone: () => kept !== null && kept.length === 0 && (sync?.trusted() ?? false),
    async putSubscription(subscription) {
      await change(() =>
        query(
          `INSERT INTO push_subscriptions (endpoint, p256dh, auth, owner, label, hide_text, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth, owner = excluded.owner, label = excluded.label, hide_text = excluded.hide_text, created_at = excluded.created_at`,
          [subscription.endpoint, subscription.p256dh, subscription.auth, subscription.owner, subscription.label, subscription.hideText, subscription.createdAt],
        ),
      );
    },
    deleteSubscription: async (endpoint) => ((await change(() => query("DELETE FROM push_subscriptions WHERE endpoint = $1", [endpoint]))).rowCount ?? 0) > 0,
    deleteOwner: async (owner) => (await change(() => query("DELETE FROM push_subscriptions WHERE owner = $1", [owner]))).rowCount ?? 0,
    moveOwner: async (from, to) => (await change(() => query("UPDATE push_subscriptions SET owner = $2 WHERE owner = $1", [from, to]))).rowCount ?? 0,
    // The pool is the store's: the host closes it with the store.
    close: async () => undefined,
  };
}
