import type { DownFrame } from "../../protocol/schemas";
import type { Logins } from "../fence/logins";
import type { Logger } from "../log";
import type { Cluster } from "../pg/cluster";
import { isPgStore } from "../pg/store";
import type { Store } from "../store";
import { pgPushStore } from "./pg-push-store";
import { createPushService, loginDigest, loginOwner, type PushService } from "./push-service";
import { memoryPushStore, openSqlitePushStore, type PushStore } from "./push-store";

/**
 * The push tables beside the host's store: the cluster's Postgres database (its subscriptions kept between changes the
 * hosts notify), the host's SQLite file, or memory for `:memory:`.
 */
export function pushStoreFor(store: Store, cluster: Cluster | null): PushStore {
  if (isPgStore(store)) {
    if (!cluster) return pgPushStore(store);
    return pgPushStore(store, { trusted: () => cluster.state() === "ok", onStale: (listener) => cluster.onPushStale(listener), changed: () => cluster.sendPushChanged() });
  }
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
    async check(value, rotate) {
      const check = await logins.check(value, rotate);
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

export interface HostPushOptions {
  store: Store;
  log: Logger;
  token: string | undefined;
  /** The login cookie's name once the host knows it; null on a host without a token. */
  cookieName(): string | null;
  /** A single host's frame bus; unused in a cluster, whose frames come with the host that produced them. */
  subscribe(listener: (frame: DownFrame) => void): unknown;
  cluster: Cluster | null;
  /** The cluster's pending questions at start, counted for the badge. */
  pending(): DownFrame[];
  allowLoopback?: boolean | undefined;
  subject?: string | undefined;
}

/**
 * The host's push service, fed with frames: the host that produced a frame sends its pushes; in a cluster the others
 * only count its question for the badge, and a host whose lease was adopted sends nothing more (docs/protocol.md, push-cluster).
 */
export async function startHostPush(options: HostPushOptions): Promise<PushService> {
  const { cluster } = options;
  const push = await createPushService({
    store: pushStoreFor(options.store, cluster),
    log: options.log,
    allowLoopback: options.allowLoopback ?? false,
    ownerOf: loginOwner(options.cookieName),
    ownerLive: ownerLiveIn(options.store, options.token),
    ...(options.subject ? { subject: options.subject } : {}),
  });
  if (cluster) {
    cluster.onFrame((frame, owner) => push.onFrame(frame, owner === cluster.instance && cluster.state() !== "lost" ? "here" : "elsewhere"));
    // Frames missed while the host was cut off would leave the badge counting requests long over.
    cluster.onRecovered(async () => push.recount(cluster.pending().map((question) => question.frame)));
  } else options.subscribe((frame) => push.onFrame(frame));
  for (const frame of options.pending()) push.onFrame(frame, "elsewhere");
  return push;
}
