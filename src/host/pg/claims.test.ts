import { afterEach, describe, expect, it } from "vitest";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { createClaims } from "./claims";
import { openPgStore, type PgStore } from "./store";

describe.skipIf(postgresBinDir() === null)("cluster claims on Postgres", { timeout: 30_000 }, () => {
  const postgres = useTestPostgres();
  const stores: PgStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  it("[cluster-turns] counts a turn as held elsewhere while its host is live or dead and not yet taken over, not once taken over", async () => {
    const store = await openPgStore({ url: await postgres().createDatabase(), instance: "me" });
    stores.push(store);
    await store.query("INSERT INTO hosts (instance, url, lease_until) VALUES ('me', 'http://127.0.0.1:1', now() + interval '1 minute'), ('live', 'http://127.0.0.1:2', now() + interval '1 minute'), ('expired', 'http://127.0.0.1:3', now() - interval '1 second')");
    // "adopted" has no hosts row: another host took its work over.
    await store.query("INSERT INTO turns (session_id, owner) VALUES ('s-me', 'me'), ('s-live', 'live'), ('s-expired', 'expired'), ('s-adopted', 'adopted')");
    const claims = createClaims(store, "me", () => Promise.resolve(), () => Promise.resolve());
    expect((await claims.turnsElsewhere()).sort()).toEqual(["s-expired", "s-live"]);
    // An expired owner's turn can still be taken (its host is dead); a live one's cannot.
    expect([await claims.claimTurn("s-expired"), await claims.claimTurn("s-live")]).toEqual([true, false]);
    expect((await claims.turnsElsewhere()).sort()).toEqual(["s-live"]);
  });
});
