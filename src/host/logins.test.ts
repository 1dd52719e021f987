import { describe, expect, it } from "vitest";
import { createLogins, LOGIN_ROTATE_MS, LOGIN_ROTATION_GRACE_MS, LOGIN_TTL_MS } from "./logins";
import { openStore } from "./store";

const TOKEN = "a-token-of-enough-length";

describe("createLogins", () => {
  it("issues random values and stores only their digests", () => {
    const store = openStore(":memory:");
    const logins = createLogins(store, TOKEN, () => 0);
    const first = logins.issue();
    const second = logins.issue();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(store.getLogin(first)).toBeNull();
    expect(logins.check(first)).toEqual({ ok: true, replacement: null });
  });

  it("rotates a login older than a day: a new value, the old one valid only for the grace period", () => {
    const store = openStore(":memory:");
    let now = 1_000;
    const logins = createLogins(store, TOKEN, () => now);
    const old = logins.issue();
    now += LOGIN_ROTATE_MS;
    const check = logins.check(old);
    expect(check.ok && check.replacement).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const replacement = (check as { replacement: string }).replacement;
    expect(logins.check(replacement)).toEqual({ ok: true, replacement: null });
    now += LOGIN_ROTATION_GRACE_MS - 1;
    expect(logins.check(old).ok).toBe(true);
    now += 1;
    expect(logins.check(old)).toEqual({ ok: false });
    expect(logins.check(replacement)).toEqual({ ok: true, replacement: null });
  });

  it("expires a login after its lifetime, ends it on revoke, and refuses logins of another token", () => {
    const store = openStore(":memory:");
    let now = 0;
    const logins = createLogins(store, TOKEN, () => now);
    const expiring = logins.issue();
    const revoked = logins.issue();
    expect(logins.revoke(revoked)).toBe(true);
    expect(logins.revoke(revoked)).toBe(false);
    expect(logins.check(revoked)).toEqual({ ok: false });
    expect(createLogins(store, "another-token-of-length", () => now).check(expiring)).toEqual({ ok: false });
    now = LOGIN_TTL_MS;
    expect(logins.check(expiring)).toEqual({ ok: false });
    expect(store.purgeLogins(now)).toBe(1);
  });
});
