import { describe, expect, it } from "vitest";
import type { PgStore } from "../pg/store";
import { pgPushStore, type SubscriptionSync } from "./pg-push-store";

const ROW = { endpoint: "https://push.example/1", p256dh: "k", auth: "a", owner: "host", label: null, hide_text: false, created_at: "1000" };
const SUBSCRIPTION = { endpoint: "https://push.example/1", p256dh: "k", auth: "a", owner: "host", label: null, hideText: false, createdAt: 1000 };

/** A Postgres store that records each statement and answers a list with `rows`; a read can be held until released. */
function recordingStore() {
  const statements: string[] = [];
  let rows = [ROW];
  let hold: Promise<void> | null = null;
  const store = {
    async query(text: string) {
      statements.push(text.split(" ")[0]!);
      const answer = { rows: text.startsWith("SELECT") ? rows.map((row) => ({ ...row })) : [], rowCount: 1 };
      if (hold) await hold;
      return answer;
    },
  } as unknown as PgStore;
  return {
    store,
    statements,
    setRows: (next: (typeof ROW)[]) => (rows = next),
    holdNext() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => ((hold = null), release());
    },
  };
}

function fakeSync() {
  let trusted = true;
  const listeners: (() => void)[] = [];
  let changes = 0;
  const sync: SubscriptionSync = {
    trusted: () => trusted,
    onStale: (listener) => void listeners.push(listener),
    changed: async () => void changes++,
  };
  return { sync, stale: () => listeners.forEach((listener) => listener()), setTrusted: (value: boolean) => (trusted = value), changes: () => changes };
}

describe("the cluster's push store", () => {
  it("push-cluster: reads the subscriptions once and keeps them until they may be stale", async () => {
    const db = recordingStore();
    const sync = fakeSync();
    const push = pgPushStore(db.store, sync.sync);
    expect(await push.listSubscriptions()).toEqual([SUBSCRIPTION]);
    const kept = await push.listSubscriptions();
    expect(kept).toEqual([SUBSCRIPTION]);
    // A caller that changes what it was given does not change what is kept.
    kept[0]!.owner = "someone";
    expect(await push.listSubscriptions()).toEqual([SUBSCRIPTION]);
    expect(db.statements).toEqual(["SELECT"]);
    db.setRows([]);
    sync.stale();
    expect(await push.listSubscriptions()).toEqual([]);
    expect(await push.listSubscriptions()).toEqual([]);
    expect(db.statements).toEqual(["SELECT", "SELECT"]);
  });

  it("push-cluster: a change made here reads again and tells the other hosts; an untrusted or stale read is not kept", async () => {
    const db = recordingStore();
    const sync = fakeSync();
    const push = pgPushStore(db.store, sync.sync);
    await push.listSubscriptions();
    expect(await push.deleteSubscription(ROW.endpoint)).toBe(true);
    expect(sync.changes()).toBe(1);
    db.setRows([]);
    expect(await push.listSubscriptions()).toEqual([]);
    expect(db.statements).toEqual(["SELECT", "DELETE", "SELECT"]);

    // While the host may miss notifications (its LISTEN connection was lost), every list is read; once back, one is kept again.
    sync.setTrusted(false);
    sync.stale();
    await push.listSubscriptions();
    await push.listSubscriptions();
    sync.setTrusted(true);
    sync.stale();
    await push.listSubscriptions();
    await push.listSubscriptions();
    expect(db.statements).toEqual(["SELECT", "DELETE", "SELECT", "SELECT", "SELECT", "SELECT"]);

    // A read that began before a change was notified answers its caller but is not kept.
    sync.stale();
    const release = db.holdNext();
    const reading = push.listSubscriptions();
    sync.stale();
    release();
    await reading;
    await push.listSubscriptions();
    await push.listSubscriptions();
    expect(db.statements.slice(6)).toEqual(["SELECT", "SELECT"]);
  });

  it("push-none: holds none only as a kept, empty list tells while the host gets the others' notifications", async () => {
    const db = recordingStore();
    const sync = fakeSync();
    const push = pgPushStore(db.store, sync.sync);
    db.setRows([]);
    expect(push.holdsNone()).toBe(false);
    await push.listSubscriptions();
    expect(push.holdsNone()).toBe(true);
    sync.setTrusted(false);
    expect(push.holdsNone()).toBe(false);
    sync.setTrusted(true);
    sync.stale();
    expect(push.holdsNone()).toBe(false);
    db.setRows([ROW]);
    await push.listSubscriptions();
    expect(push.holdsNone()).toBe(false);
    // Without the hosts' notifications nothing is kept, so it always reads.
    const alone = pgPushStore(db.store);
    db.setRows([]);
    await alone.listSubscriptions();
    expect(alone.holdsNone()).toBe(false);
  });

  it("push-cluster: without the hosts' notifications every list is read", async () => {
    const db = recordingStore();
    const push = pgPushStore(db.store);
    await push.listSubscriptions();
    await push.listSubscriptions();
    expect(db.statements).toEqual(["SELECT", "SELECT"]);
  });
});
