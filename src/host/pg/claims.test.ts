import { afterEach, describe, expect, it } from "vitest";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import pg from "pg";
import { CHANNEL, NOTIFY_LIMIT_BYTES, openEnvelope } from "./channel";
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
    const claims = createClaims(store, "me", () => Promise.resolve());
    expect((await claims.turnsElsewhere()).sort()).toEqual(["s-expired", "s-live"]);
    // An expired owner's turn can still be taken (its host is dead); a live one's cannot.
    expect([await claims.claimTurn("s-expired"), await claims.claimTurn("s-live")]).toEqual([true, false]);
    expect((await claims.turnsElsewhere()).sort()).toEqual(["s-live"]);
  });

  it("[cluster-claims] hands the owner an answer of any size in the claim's own statement: a large one as a frame row whose id is notified", async () => {
    const url = await postgres().createDatabase();
    const store = await openPgStore({ url, instance: "me" });
    stores.push(store);
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (message) => void (message.channel === CHANNEL && message.payload !== undefined && heard.push(message.payload)));
    await listener.query(`LISTEN ${CHANNEL}`);
    await store.query("INSERT INTO pending (rpc_id, session_id, owner, frame) VALUES ('small', 's1', 'owner', '{}'), ('large', 's1', 'owner', '{}'), ('mine', 's1', 'me', '{}')");
    const claims = createClaims(store, "me", () => Promise.resolve());
    const small = { type: "answer", rpcId: "small", answers: [{ id: "q", selected: [], custom: "short" }] };
    // Over the notification limit in UTF-8 bytes, as a long answer in Chinese is.
    const large = { type: "answer", rpcId: "large", answers: [{ id: "q", selected: [], custom: "长".repeat(NOTIFY_LIMIT_BYTES / 3 + 10) }] };
    expect(await claims.claim("small", "answered", small)).toBe("owner");
    expect(await claims.claim("large", "answered", large)).toBe("owner");
    expect(await claims.claim("large", "answered", large)).toBe(null);
    expect(await claims.claim("mine", "answered", small)).toBe("me");
    const marker = "marker";
    await store.query("SELECT pg_notify($1, $2)", [CHANNEL, marker]);
    for (let waited = 0; !heard.includes(marker) && waited < 200; waited++) await new Promise((resolve) => setTimeout(resolve, 25));
    await listener.end();
    const received = await Promise.all(heard.filter((payload) => payload !== marker).map((payload) => openEnvelope(store, "owner", payload)));
    expect(received).toEqual([
      { s: "me", to: "owner", answer: small },
      { s: "me", to: "owner", answer: large },
    ]);
  });
});
