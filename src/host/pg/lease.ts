import type { PgStore } from "./store";

/**
 * A host's lease in the cluster (docs/architecture.md, Several hosts): its row in `hosts`, renewed every sixth of the
 * lease's length. Past the lease without a renewal another host may adopt its work; once its row is gone, it was adopted.
 */
export interface Lease {
  /** How often the lease is renewed. */
  readonly renewMs: number;
  /** Writes the lease's row, with where this host serves. */
  register(address: string): Promise<void>;
  /** Extends the lease: false when its row is gone (another host adopted this one). */
  renew(): Promise<boolean>;
  /** No renewal succeeded within the lease's length. */
  overdue(): boolean;
  /** Live hosts by their leases. */
  countLive(): Promise<number>;
  /** Removes the lease's row. */
  leave(): Promise<void>;
}

export function createLease(store: PgStore, instance: string, leaseMs: number): Lease {
  const leaseSeconds = leaseMs / 1000;
  let lastRenewed = performance.now();
  return {
    renewMs: Math.max(100, Math.floor(leaseMs / 6)),
    async register(address) {
      await store.query("INSERT INTO hosts (instance, url, lease_until) VALUES ($1, $2, now() + make_interval(secs => $3))", [instance, address, leaseSeconds]);
    },
    async renew() {
      // The lease runs from when the renewal was sent: a reply read late (the process was paused) must not extend it.
      const sent = performance.now();
      const renewed = await store.query("UPDATE hosts SET lease_until = now() + make_interval(secs => $2) WHERE instance = $1", [instance, leaseSeconds], false);
      if ((renewed.rowCount ?? 0) === 0) return false;
      lastRenewed = Math.max(lastRenewed, sent);
      return true;
    },
    overdue: () => performance.now() - lastRenewed > leaseMs,
    async countLive() {
      const count = await store.query<{ live: number }>("SELECT count(*)::int AS live FROM hosts WHERE lease_until > now()", [], false);
      return count.rows[0]?.live ?? 1;
    },
    async leave() {
      await store.query("DELETE FROM hosts WHERE instance = $1", [instance], false);
    },
  };
}
