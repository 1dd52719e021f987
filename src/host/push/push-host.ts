import type { Logins } from "../fence/logins";
import type { Logger } from "../log";
import { isPgStore } from "../pg/store";
import type { Store } from "../store";
import { pgPushStore } from "./pg-push-store";
import { loginDigest, type PushService } from "./push-service";
import { memoryPushStore, openSqlitePushStore, type PushStore } from "./push-store";

/** The push tables beside the host's store: the cluster's Postgres database, the host's SQLite file, or memory for `:memory:`. */
export function pushStoreFor(store: Store): PushStore {
  if (isPgStore(store)) return pgPushStore(store);
  return store.location === ":memory:" ? memoryPushStore() : openSqlitePushStore(store.location);
}

/**
 * Whether a subscription's owner may still get pushes (docs/protocol.md, push-owner): `host` only while the host has no
 * token, `token` (a bearer client) only while it has one, a login while it is stored, unexpired and made with this token.
 */
export function ownerLiveIn(store: Store, token: string | undefined, now: () => number = Date.now): (owner: string) => Promise<boolean> {
  return async (owner) => {
    if (owner === "host") return token === undefined;
    if (token === undefined) return false;
    if (owner === "token") return true;
    const login = await store.getLogin(owner);
    return login !== null && login.tokenDigest === loginDigest(token) && login.expiresAt > now();
  };
}

/** The logins, telling the push service when one is rotated (its subscriptions follow it) or revoked (they go). */
export function loginsWithPush(logins: Logins, push: PushService, log: Logger): Logins {
  const failed = (error: unknown) => log({ event: "push/owner-update-failed", error: error instanceof Error ? error.message.slice(0, 200) : "unknown" });
  return {
    issue: () => logins.issue(),
    async check(value) {
      const check = await logins.check(value);
      if (check.ok && check.replacement !== null) await push.loginRotated(loginDigest(value), loginDigest(check.replacement)).catch(failed);
      return check;
    },
    async revoke(value) {
      const revoked = await logins.revoke(value);
      await push.loginRevoked(loginDigest(value)).catch(failed);
      return revoked;
    },
  };
}
