import { describe, expect, it } from "vitest";
import { createLogins, LOGIN_ROTATE_MS, LOGIN_ROTATION_GRACE_MS, LOGIN_TTL_MS } from "./logins";
import type { LogEntry } from "../log";
import { openStore } from "../store";
import { StorageError } from "../storage-error";

const TOKEN = "a-token-of-enough-length";

/** A store in memory and the logins of TOKEN on a clock the test moves by setting `clock.now` (ms). */
function setup(start = 0) {
  const store = openStore(":memory:");
  const clock = { now: start };
  return { store, clock, logins: createLogins(store, TOKEN, () => clock.now) };
}

describe("createLogins", () => {
  it("issues random values and stores only their digests", async () => {
    const { store, logins } = setup();
    const first = await logins.issue();
    const second = await logins.issue();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(await store.getLogin(first)).toBeNull();
    expect(await logins.check(first)).toEqual({ ok: true, replacement: null });
  });

  it("rotates a login older than a day: a new value, the old one valid only for the grace period", async () => {
    const { clock, logins } = setup(1_000);
    const old = await logins.issue();
    clock.now += LOGIN_ROTATE_MS;
    const check = await logins.check(old);
    expect(check.ok && check.replacement).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const replacement = (check as { replacement: string }).replacement;
    expect(await logins.check(replacement)).toEqual({ ok: true, replacement: null });
    clock.now += LOGIN_ROTATION_GRACE_MS - 1;
    expect((await logins.check(old)).ok).toBe(true);
    clock.now += 1;
    expect(await logins.check(old)).toEqual({ ok: false });
    expect(await logins.check(replacement)).toEqual({ ok: true, replacement: null });
  });

  it("expires a login after its lifetime, ends it on revoke, and refuses logins of another token", async () => {
    const { store, clock, logins } = setup();
    const expiring = await logins.issue();
    const revoked = await logins.issue();
    expect(await logins.revoke(revoked)).toBe(true);
    expect(await logins.revoke(revoked)).toBe(false);
    expect(await logins.check(revoked)).toEqual({ ok: false });
    expect(await createLogins(store, "another-token-of-length", () => clock.now).check(expiring)).toEqual({ ok: false });
    clock.now = LOGIN_TTL_MS;
    expect(await logins.check(expiring)).toEqual({ ok: false });
    expect(await store.purgeLogins(clock.now)).toBe(1);
  });

  it("rotates a login once: requests that carry it together, or later in its grace period, get the same replacement", async () => {
    const { store, clock, logins } = setup(1_000);
    const old = await logins.issue();
    clock.now += LOGIN_ROTATE_MS;
    const checks = await Promise.all([logins.check(old), logins.check(old), logins.check(old)]);
    const replacement = checks[0]!.ok ? checks[0]!.replacement : null;
    expect(replacement).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(checks).toEqual([0, 1, 2].map(() => ({ ok: true, replacement })));
    // A request whose answer never reached the browser is made good by the next one, with the same replacement.
    clock.now += LOGIN_ROTATION_GRACE_MS / 2;
    expect(await logins.check(old)).toEqual({ ok: true, replacement });
    expect(await logins.check(replacement!)).toEqual({ ok: true, replacement: null });
    // Another host finds it rotated and lets it serve out its grace period.
    expect(await createLogins(store, TOKEN, () => clock.now).check(old)).toEqual({ ok: true, replacement: null });
    clock.now += LOGIN_ROTATION_GRACE_MS / 2;
    expect(await logins.check(old)).toEqual({ ok: false });
    // A login checked for the first time in its last seconds is still rotated, once.
    const late = await logins.issue();
    clock.now += LOGIN_TTL_MS - 10;
    const lateChecks = await Promise.all([logins.check(late), logins.check(late)]);
    expect(new Set(lateChecks.map((check) => check.ok && check.replacement)).size).toBe(1);
    expect(lateChecks[0]).toMatchObject({ ok: true, replacement: expect.any(String) });
  });

  it("leaves a login as it was, and lets its request through, when its replacement cannot be stored; the next request rotates it", async () => {
    const store = openStore(":memory:");
    const clock = { now: 1_000 };
    const logs: LogEntry[] = [];
    const logins = createLogins(store, TOKEN, () => clock.now, (entry) => logs.push(entry));
    const old = await logins.issue();
    clock.now += LOGIN_ROTATE_MS;
    const insert = store.insertLogin.bind(store);
    store.insertLogin = () => Promise.reject(new StorageError("STORAGE_FULL", "the disk is full", "SQLITE_FULL"));
    expect(await logins.check(old)).toEqual({ ok: true, replacement: null });
    expect(await logins.check(old)).toEqual({ ok: true, replacement: null });
    expect(logs).toEqual([
      { event: "login/rotate-failed", code: "STORAGE_FULL" },
      { event: "login/rotate-failed", code: "STORAGE_FULL" },
    ]);
    store.insertLogin = insert;
    const next = await logins.check(old);
    expect(next).toMatchObject({ ok: true, replacement: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    clock.now += LOGIN_ROTATION_GRACE_MS;
    expect(await logins.check(old)).toEqual({ ok: false });
  });
});
