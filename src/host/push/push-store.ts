import Database from "better-sqlite3";
import { tuneFileConnection } from "../store";

/** The VAPID key pair of a host (of every host of a cluster), base64url as `web-push` makes them. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** One device's push subscription, kept by its endpoint (the push service's capability URL for that device). */
export interface StoredPushSubscription {
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url (`PushSubscription.toJSON().keys`). */
  p256dh: string;
  auth: string;
  /** Whose subscription it is: a login's digest, `host` on a loopback host without a token, `token` for a bearer client. */
  owner: string;
  label: string | null;
  hideText: boolean;
  createdAt: number;
}

/** A request whose notification a device may still show: its request push went out and its close push has not yet. */
export interface OpenRequest {
  rpcId: string;
  sessionId: string;
  /** When its request push went, in epoch milliseconds. */
  openedAt: number;
  /** When a close push of it was first given up, in epoch milliseconds; null while none was. */
  givenUpAt: number | null;
}

/**
 * The requests a single host pushed and has not closed yet, kept across a crash: its pending table is in memory, so
 * whatever was pending when it died ended with it, and the next start sends their close pushes (docs/protocol.md,
 * push-close). A cluster keeps none: its questions outlive their host, and the host that adopts one closes it.
 */
export interface OpenRequests {
  add(request: Omit<OpenRequest, "givenUpAt">): Promise<void>;
  remove(rpcId: string): Promise<void>;
  /** Notes that a close push of `rpcId` was given up at `at`, unless one was before. */
  gaveUp(rpcId: string, at: number): Promise<void>;
  list(): Promise<OpenRequest[]>;
}

/** Where the push service keeps its keys and subscriptions; its own tables, never another part's. */
export interface PushStore {
  /** The stored keys, or `make()`'s stored first: when several hosts start at once, every one gets the pair the first stored. */
  keys(make: () => VapidKeys): Promise<VapidKeys>;
  listSubscriptions(): Promise<StoredPushSubscription[]>;
  /**
   * True when the store knows, without reading, that it holds no subscription now; false when it holds one or would have
   * to read to tell. A question's push and close push are skipped on true: most hosts have no device subscribed.
   */
  holdsNone(): boolean;
  /** Adds or replaces the subscription with this endpoint. */
  putSubscription(subscription: StoredPushSubscription): Promise<void>;
  deleteSubscription(endpoint: string): Promise<boolean>;
  /** Every subscription `owner` made goes; the count removed. */
  deleteOwner(owner: string): Promise<number>;
  /** A rotated login keeps its subscriptions under its new digest. */
  moveOwner(from: string, to: string): Promise<number>;
  /** Lets go of what the store opened for itself (a connection); the push service calls it as it closes. */
  close(): Promise<void>;
  /** A single host's open requests; absent in a cluster's store. */
  openRequests?: OpenRequests;
}

/** A store in memory, for tests and hosts with `:memory:` storage. */
export function memoryPushStore(): PushStore {
  let stored: VapidKeys | null = null;
  const subscriptions = new Map<string, StoredPushSubscription>();
  return {
    async keys(make) {
      stored ??= make();
      return stored;
    },
    listSubscriptions: async () => [...subscriptions.values()].map((subscription) => ({ ...subscription })),
    holdsNone: () => subscriptions.size === 0,
    async putSubscription(subscription) {
      subscriptions.set(subscription.endpoint, { ...subscription });
    },
    deleteSubscription: async (endpoint) => subscriptions.delete(endpoint),
    async deleteOwner(owner) {
      let count = 0;
      for (const [endpoint, subscription] of subscriptions) if (subscription.owner === owner && subscriptions.delete(endpoint)) count++;
      return count;
    },
    async moveOwner(from, to) {
      let count = 0;
      for (const subscription of subscriptions.values()) {
        if (subscription.owner !== from) continue;
        subscription.owner = to;
        count++;
      }
      return count;
    },
    close: async () => undefined,
    openRequests: memoryOpenRequests(),
  };
}

function memoryOpenRequests(): OpenRequests {
  const open = new Map<string, OpenRequest>();
  return {
    async add(request) {
      open.set(request.rpcId, { ...request, givenUpAt: null });
    },
    async remove(rpcId) {
      open.delete(rpcId);
    },
    async gaveUp(rpcId, at) {
      const request = open.get(rpcId);
      if (request && request.givenUpAt === null) request.givenUpAt = at;
    },
    list: async () => [...open.values()].map((request) => ({ ...request })),
  };
}

interface SubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
  owner: string;
  label: string | null;
  hide_text: number;
  created_at: number;
}

/** `push_keys` and `push_subscriptions` in an open SQLite database (the host's own file); creates them when missing. */
export function sqlitePushStore(db: Database.Database): PushStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS push_keys (id INTEGER PRIMARY KEY CHECK (id = 1), public_key TEXT NOT NULL, private_key TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS push_subscriptions (
      endpoint TEXT PRIMARY KEY, p256dh TEXT NOT NULL, auth TEXT NOT NULL, owner TEXT NOT NULL,
      label TEXT, hide_text INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS push_subscriptions_owner ON push_subscriptions (owner);
    CREATE TABLE IF NOT EXISTS push_open (rpc_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, opened_at INTEGER NOT NULL, given_up_at INTEGER);
  `);
  // A file from before `given_up_at` gets the column (its notes count as never given up).
  const columns = db.prepare<[], { name: string }>("PRAGMA table_info(push_open)").all();
  if (!columns.some((column) => column.name === "given_up_at")) db.exec("ALTER TABLE push_open ADD COLUMN given_up_at INTEGER");
  const insertKeys = db.prepare("INSERT OR IGNORE INTO push_keys (id, public_key, private_key) VALUES (1, ?, ?)");
  const selectKeys = db.prepare<[], { publicKey: string; privateKey: string }>("SELECT public_key AS publicKey, private_key AS privateKey FROM push_keys WHERE id = 1");
  const list = db.prepare<[], SubscriptionRow>("SELECT endpoint, p256dh, auth, owner, label, hide_text, created_at FROM push_subscriptions ORDER BY created_at, endpoint");
  const put = db.prepare(
    "INSERT OR REPLACE INTO push_subscriptions (endpoint, p256dh, auth, owner, label, hide_text, created_at) VALUES (@endpoint, @p256dh, @auth, @owner, @label, @hideText, @createdAt)",
  );
  const remove = db.prepare("DELETE FROM push_subscriptions WHERE endpoint = ?");
  const removeOwner = db.prepare("DELETE FROM push_subscriptions WHERE owner = ?");
  const move = db.prepare("UPDATE push_subscriptions SET owner = ? WHERE owner = ?");
  const addOpen = db.prepare("INSERT OR REPLACE INTO push_open (rpc_id, session_id, opened_at) VALUES (?, ?, ?)");
  const removeOpen = db.prepare("DELETE FROM push_open WHERE rpc_id = ?");
  const gaveUpOpen = db.prepare("UPDATE push_open SET given_up_at = ? WHERE rpc_id = ? AND given_up_at IS NULL");
  const listOpen = db.prepare<[], OpenRequest>("SELECT rpc_id AS rpcId, session_id AS sessionId, opened_at AS openedAt, given_up_at AS givenUpAt FROM push_open ORDER BY opened_at, rpc_id");
  const count = db.prepare<[], { count: number }>("SELECT count(*) AS count FROM push_subscriptions");
  /** Whether the table is empty, as last read or written here: the host's own file, which only it writes while it runs. */
  let empty = count.get()!.count === 0;
  return {
    async keys(make) {
      const existing = selectKeys.get();
      if (existing) return { ...existing };
      const made = make();
      insertKeys.run(made.publicKey, made.privateKey);
      return { ...selectKeys.get()! };
    },
    async listSubscriptions() {
      const rows = list.all();
      empty = rows.length === 0;
      return rows.map((row) => ({ endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth, owner: row.owner, label: row.label, hideText: row.hide_text === 1, createdAt: row.created_at }));
    },
    holdsNone: () => empty,
    async putSubscription(subscription) {
      put.run({ ...subscription, hideText: subscription.hideText ? 1 : 0 });
      empty = false;
    },
    async deleteSubscription(endpoint) {
      const removed = remove.run(endpoint).changes > 0;
      empty = count.get()!.count === 0;
      return removed;
    },
    async deleteOwner(owner) {
      const removed = removeOwner.run(owner).changes;
      empty = count.get()!.count === 0;
      return removed;
    },
    moveOwner: async (from, to) => move.run(to, from).changes,
    close: async () => undefined,
    openRequests: {
      async add(request) {
        addOpen.run(request.rpcId, request.sessionId, request.openedAt);
      },
      async remove(rpcId) {
        removeOpen.run(rpcId);
      },
      async gaveUp(rpcId, at) {
        gaveUpOpen.run(at, rpcId);
      },
      list: async () => listOpen.all().map((row) => ({ ...row })),
    },
  };
}

/**
 * The push tables in the host's SQLite file, through a connection of their own: the store's interface stays about the
 * transcript, and the push service's rare writes wait for the store's (WAL, a busy timeout) instead of failing.
 */
export function openSqlitePushStore(location: string): PushStore {
  const db = new Database(location);
  try {
    tuneFileConnection(db);
    return { ...sqlitePushStore(db), close: async () => void db.close() };
  } catch (error) {
    db.close();
    throw error;
  }
}
