import { createHash, randomBytes } from "node:crypto";
import type { Logger } from "../log";
import type { Store, StoredLogin } from "../store";

/** How long a login lasts since it was issued or last rotated. */
export const LOGIN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A login older than this is replaced by a fresh one on its next use. */
export const LOGIN_ROTATE_MS = 24 * 60 * 60 * 1000;
/** After a rotation the old value keeps working this long, for requests already in flight. */
export const LOGIN_ROTATION_GRACE_MS = 60 * 1000;

const LOGIN_BYTES = 32;

/** The name of the login cookie: per port, since browsers send a host's cookies to all of its ports. */
export function loginCookieName(port: number): string {
  return `parley_login_${port}`;
}

/** A store failure's code (`STORAGE_FULL`…), else INTERNAL. */
const errorCode = (error: unknown) => (error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "INTERNAL");

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

export type LoginCheck = { ok: false } | { ok: true; replacement: string | null };

/** Logins made from the token link: the cookie holds a random value, the store holds only its digest, bound to the token's digest. */
export interface Logins {
  /** A new login; the value goes into the cookie. */
  issue(): Promise<string>;
  /**
   * Whether a cookie value is a live login; an old one is rotated and the replacement returned, unless `rotate` is false
   * (a request whose response cannot hand a cookie back: it leaves the rotation to the next one that can).
   */
  check(value: string, rotate?: boolean): Promise<LoginCheck>;
  /** Ends a login at once; true when it existed. */
  revoke(value: string): Promise<boolean>;
}

export function createLogins(store: Store, token: string, now: () => number = Date.now, log: Logger = () => undefined): Logins {
  const tokenDigest = digest(token);
  /**
   * This host's rotations by the old login's digest, kept for its grace period: every request that carries the old login
   * meanwhile gets the same replacement, so one whose answer never reached the browser is made good by the next.
   */
  const rotations = new Map<string, { check: Promise<LoginCheck>; until: number }>();

  async function issue(): Promise<string> {
    const value = randomBytes(LOGIN_BYTES).toString("base64url");
    const at = now();
    await store.insertLogin({ digest: digest(value), tokenDigest, issuedAt: at, expiresAt: at + LOGIN_TTL_MS });
    return value;
  }

  /** The replacement is stored first, so a failure leaves the old login as it was, for the next request to rotate. */
  async function rotateLogin(login: StoredLogin, graceEnd: number): Promise<LoginCheck> {
    const value = await issue();
    if (await store.moveLoginExpiry(login.digest, login.expiresAt, graceEnd)) return { ok: true, replacement: value };
    // Another host rotated it first: its answer carries the replacement, and this one goes.
    await store.deleteLogin(digest(value));
    return { ok: true, replacement: null };
  }

  return {
    issue,
    async check(value, rotate = true) {
      const login = await store.getLogin(digest(value));
      const at = now();
      if (!login || login.tokenDigest !== tokenDigest || login.expiresAt <= at) return { ok: false };
      if (!rotate || at - login.issuedAt < LOGIN_ROTATE_MS) return { ok: true, replacement: null };
      for (const [old, rotation] of rotations) if (rotation.until <= at) rotations.delete(old);
      const known = rotations.get(login.digest);
      if (known) return known.check;
      // Rotated by another host (or before this host started): its expiry moved off its lifetime's end, and it serves out
      // its grace period as it is.
      if (login.expiresAt !== login.issuedAt + LOGIN_TTL_MS) return { ok: true, replacement: null };
      const graceEnd = Math.min(login.expiresAt - 1, at + LOGIN_ROTATION_GRACE_MS);
      // A replacement that cannot be stored (a full disk, a store refusing writes) leaves the login as it was and the
      // request goes on with it: reads still work, and a later request rotates it.
      const check = rotateLogin(login, graceEnd).catch((error: unknown): LoginCheck => {
        rotations.delete(login.digest);
        log({ event: "login/rotate-failed", code: errorCode(error) });
        return { ok: true, replacement: null };
      });
      rotations.set(login.digest, { check, until: graceEnd });
      return check;
    },
    revoke: (value) => store.deleteLogin(digest(value)),
  };
}
