import { describe, expect, it } from "vitest";
import { createLease } from "./lease";
import type { PgStore } from "./store";

/** A store whose every query answers one row changed after `delayMs`. */
function slowStore(delayMs: number): PgStore {
  const query = () => new Promise((resolve) => setTimeout(() => resolve({ rowCount: 1, rows: [] }), delayMs));
  return { query } as unknown as PgStore;
}

describe("a host's lease [cluster-lease]", () => {
  it("runs from when a renewal was sent, so a reply read after a pause longer than the lease leaves it overdue", async () => {
    const lease = createLease(slowStore(150), "instance", 60);
    expect(await lease.renew()).toBe(true);
    expect(lease.overdue()).toBe(true);
  });

  it("is not overdue after a renewal answered within the lease", async () => {
    const lease = createLease(slowStore(0), "instance", 60_000);
    expect([await lease.renew(), lease.overdue()]).toEqual([true, false]);
  });
});
