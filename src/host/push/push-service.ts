import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import webpush from "web-push";
import type { DownFrame, QuestionRequestedFrame } from "../../protocol/schemas";
import { readCookie } from "../fence/fence";
import { sendJson, type Route } from "../http/http";
import type { Logger } from "../log";
import { requestPayload, resolvedPayload, type ResolvedPush } from "./payload";
import { takesSilentPushes } from "../../protocol/push-services";
import { abortableSleep, createPushDelivery, type PushRetry } from "./push-delivery";
import type { StoredPushSubscription, PushStore, VapidKeys } from "./push-store";
import { createPushSubscriptions } from "./push-subscriptions";
import { publicOnlyLookup, type Lookup } from "./push-address";

export { endpointAllowed, retryAfterMs, type PushRetry, type SendOutcome } from "./push-delivery";
export { SubscriptionBody } from "./push-subscriptions";

export interface PushServiceOptions {
  store: PushStore;
  log: Logger;
  /** PARLEY_PUSH_ALLOW_LOOPBACK=1: also `http://` and `https://` endpoints on 127.0.0.1 (tests). */
  allowLoopback: boolean;
  /** Whose request this is (`loginOwner` reads it from the login cookie). */
  ownerOf(request: IncomingMessage): string;
  /** Whether an owner still has a live login; a dead owner's subscriptions are dropped before the next send. Default: always live. */
  ownerLive?(owner: string): Promise<boolean>;
  /** The VAPID `sub` claim: a `mailto:` or `https:` contact for the push services (PARLEY_PUSH_SUBJECT). */
  subject?: string;
  retry?: Partial<PushRetry>;
  /** How long one request to a push service may take; default 15 s. */
  timeoutMs?: number;
  /** At most this many subscriptions are kept; the oldest goes for a new one; default 50. */
  maxSubscriptions?: number;
  /** How long `close()` lets queued pushes (the close pushes of requests settled at shutdown) go out before it stops them; default 3 s. */
  closeGraceMs?: number;
  /** Whether a device's push service lets a push end without a notification (default: every one but Apple's); one that does not gets no close push. */
  takesSilentPushes?(endpoint: string): boolean;
  /** Resolves push services' names (tests give their own); default `dns.lookup`, failing a name that resolves to an address no push service has. */
  lookup?: Lookup;
  /** Waits between retries (tests record them instead of waiting). */
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
  now?(): number;
}

/** What the host keeps of the push service: the frame hook, its routes and the login hooks. */
export interface PushService {
  readonly publicKey: string;
  /**
   * Give every `question/requested` and `question/resolved` frame (other frames are ignored). `here` (the default): this
   * host produced it and sends its pushes; `elsewhere`: another host of the cluster did and sends them, so it only counts
   * for the badge (docs/protocol.md, push-cluster). A request already known sends nothing again; a resolve of an unknown one neither.
   */
  onFrame(frame: DownFrame, source?: FrameSource): void;
  /**
   * The requests pending now, as a cluster host reads them again after an outage: the badge counts these from now on, so
   * a resolve whose frame was missed while the host was cut off stops counting, and a request asked meanwhile starts.
   * This host's own requests still pending here stay, read or not: their pushes and close pushes are this host's to send.
   */
  recount(pending: readonly QuestionRequestedFrame[]): void;
  /** `GET /api/push/key`, `GET|POST|DELETE /api/push/subscriptions` (docs/protocol.md, push-*). */
  routes(): Route[];
  /** A login was rotated: its subscriptions follow it to the new digest. */
  loginRotated(fromDigest: string, toDigest: string): Promise<void>;
  /** A login was revoked (logout) or purged: its subscriptions go. */
  loginRevoked(digest: string): Promise<void>;
  /** Resolves once every push queued so far was sent, dropped or given up. */
  idle(): Promise<void>;
  /** Lets queued pushes go out for a grace period, stops retrying, waits for requests in flight, and closes its store. */
  close(): Promise<void>;
}

/** A signal per pending request, aborted when it ends: its request push, waiting to be retried, stops waiting. */
function requestEndings(isPending: (rpcId: string) => boolean) {
  const endings = new Map<string, AbortController>();
  return {
    ended(rpcId: string): AbortSignal {
      if (!isPending(rpcId)) return AbortSignal.abort();
      const ending = endings.get(rpcId) ?? new AbortController();
      endings.set(rpcId, ending);
      return ending.signal;
    },
    /** Ends the waits of requests no longer pending. */
    endWaits() {
      for (const [rpcId, ending] of endings) {
        if (isPending(rpcId)) continue;
        ending.abort();
        endings.delete(rpcId);
      }
    },
  };
}

/** Who sends a frame's pushes: the host that produced it. */
export type FrameSource = "here" | "elsewhere";

const DEFAULT_RETRY: PushRetry = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };
const DEFAULT_SUBJECT = "mailto:parley@example.invalid";

/** A login cookie value's digest, as the store keeps logins: what `loginRotated` and `loginRevoked` take. */
export const loginDigest = (value: string) => createHash("sha256").update(value).digest("hex");

/** Owners by login: the login cookie's digest (as the store keeps logins), `token` for a bearer client, `host` with no token at all. */
export function loginOwner(cookieName: () => string | null): (request: IncomingMessage) => string {
  return (request) => {
    const name = cookieName();
    if (name === null) return "host";
    const login = readCookie(request, name);
    return login === null ? "token" : loginDigest(login);
  };
}

/** How long after its close push was first given up a request's note is retried at each start before it is let go (`push/close-abandoned`). */
export const OPEN_NOTE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * What a device whose login ended gets: the close push of every request pending but those whose pushes are still going
 * out (it got none of them), and of those being closed, with its badge at 0.
 */
function farewellCloses(pending: ReadonlyMap<string, QuestionRequestedFrame>, asking: ReadonlySet<string>, closing: ReadonlyMap<string, ResolvedPush>): ResolvedPush[] {
  const open = [...pending.values()].filter((frame) => !asking.has(frame.rpcId));
  return [
    ...open.map((frame): ResolvedPush => ({ v: 1, kind: "resolved", rpcId: frame.rpcId, sessionId: frame.sessionId, outcome: "aborted", pending: 0 })),
    ...[...closing.values()].map((payload) => ({ ...payload, pending: 0 })),
  ];
}

/** Makes or loads the VAPID keys, then sends a push per pending request to every subscribed device and closes it when resolved. */
export async function createPushService(options: PushServiceOptions): Promise<PushService> {
  const { store, log } = options;
  const keys: VapidKeys = await store.keys(() => webpush.generateVAPIDKeys());
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxSubscriptions = options.maxSubscriptions ?? 50;
  const closeGraceMs = options.closeGraceMs ?? 3000;
  const subject = options.subject ?? DEFAULT_SUBJECT;
  const silentPushes = options.takesSilentPushes ?? takesSilentPushes;
  const stopping = new AbortController();
  /** This host's pending requests, for the badge count and to skip a request push whose request already ended. */
  const pending = new Map<string, QuestionRequestedFrame>();
  /** Which of them this host asked (it sends their pushes). */
  const own = new Set<string>();
  /** Which of them a recount read before their frame came: that frame is still the request's first here. */
  const read = new Set<string>();
  const { ended, endWaits } = requestEndings((rpcId) => pending.has(rpcId));
  const { allowLoopback, ownerOf, ownerLive } = options;
  const subscriptions = createPushSubscriptions({ store, log, allowLoopback, ownerOf, ownerLive, maxSubscriptions, now, onGone: (gone) => farewell(gone) });
  const { fanOut, sendTo, idle: delivered } = createPushDelivery({
    store, log, keys, subject, allowLoopback, retry, timeoutMs, sleep, now,
    stopping: stopping.signal,
    isPending: (rpcId) => pending.has(rpcId),
    ended,
    subscriptions: subscriptions.live,
    lookup: publicOnlyLookup(options.lookup),
  });
  let closing: Promise<void> | null = null;
  const openRequests = store.openRequests;
  /** The requests noted in `openRequests`, so a resolve of one never noted (no device got it) writes nothing. */
  const noted = new Set<string>();
  const noteFailed = (error: unknown) => log({ event: "push/note-failed", error: error instanceof Error ? error.message.slice(0, 200) : "unknown" });

  /** Close pushes sent whose request is still to be forgotten as open: `idle()` waits for them too. */
  const forgetting = new Set<Promise<unknown>>();
  const forget = (work: Promise<unknown>) => void (forgetting.add(work), work.finally(() => forgetting.delete(work)));

  /** Requests whose close pushes are going out and whose devices are still to be listed: a device found gone then gets them too. */
  const closingNow = new Map<string, ResolvedPush>();
  /** Requests whose pushes are going out and whose devices are still to be listed: a device found gone then never got them. */
  const askingNow = new Set<string>();

  /**
   * Devices whose login ended (logout, expiry, another token) can no longer answer, and no later close push reaches them:
   * each gets now the close push of every request still pending and of those being closed, so no notification stays.
   */
  function farewell(gone: readonly StoredPushSubscription[]) {
    const silent = gone.filter((subscription) => silentPushes(subscription.endpoint));
    const closes = farewellCloses(pending, askingNow, closingNow);
    if (silent.length > 0 && closes.length > 0) forget(sendTo(silent, closes));
  }

  /** Sends a request's close pushes, then forgets it was open; one that was given up (shutdown, a push service down) stays noted for the next start. */
  function close(rpcId: string, payload: ResolvedPush) {
    closingNow.set(rpcId, payload);
    const listed = () => void closingNow.delete(rpcId);
    forget(
      fanOut((subscription) => (silentPushes(subscription.endpoint) ? payload : null), async () => listed()).then((outcomes) => {
        listed();
        if (!noted.delete(rpcId)) return;
        if (outcomes.includes("gave-up")) return openRequests?.gaveUp(rpcId, now()).catch(noteFailed);
        return openRequests?.remove(rpcId).catch(noteFailed);
      }),
    );
  }

  async function idle() {
    do {
      await delivered();
      await Promise.allSettled([...forgetting]);
    } while (forgetting.size > 0);
  }

  // What a single host pushed before it last stopped and never closed ended with it: its close pushes go now. A note
  // whose close push was first given up more than a week ago is let go: the app's next open on that device closes the
  // notification (a window tells the worker what is pending), so the retries stay bounded.
  for (const request of (await openRequests?.list().catch((error: unknown) => (noteFailed(error), []))) ?? []) {
    if (request.givenUpAt !== null && now() - request.givenUpAt > OPEN_NOTE_MAX_AGE_MS) {
      log({ event: "push/close-abandoned", rpcId: request.rpcId, givenUpAt: new Date(request.givenUpAt).toISOString() });
      await openRequests!.remove(request.rpcId).catch(noteFailed);
      continue;
    }
    noted.add(request.rpcId);
    close(request.rpcId, { v: 1, kind: "resolved", rpcId: request.rpcId, sessionId: request.sessionId, outcome: "aborted", pending: 0 });
  }

  return {
    publicKey: keys.publicKey,
    onFrame(frame, source = "here") {
      if (stopping.signal.aborted) return;
      if (frame.type === "question/requested") {
        const known = pending.has(frame.rpcId) && !read.delete(frame.rpcId);
        pending.set(frame.rpcId, frame);
        if (known || source !== "here") return;
        own.add(frame.rpcId);
        // No device to tell: nothing is sent, so nothing is noted and its resolve has nothing to close.
        if (store.holdsNone()) return;
        const count = pending.size;
        const { rpcId, sessionId } = frame;
        askingNow.add(rpcId);
        void fanOut(
          (subscription) => requestPayload(frame, count, subscription.hideText),
          async (devices) => {
            askingNow.delete(rpcId);
            if (devices === 0 || openRequests === undefined) return;
            noted.add(rpcId);
            await openRequests.add({ rpcId, sessionId, openedAt: now() });
          },
        ).finally(() => askingNow.delete(rpcId));
      } else if (frame.type === "question/resolved") {
        own.delete(frame.rpcId);
        read.delete(frame.rpcId);
        const was = pending.delete(frame.rpcId);
        endWaits();
        if (!was || source !== "here") return;
        // Its push still being listed or noted as sent, its close goes the whole way: a device may have got it.
        if (store.holdsNone() && !askingNow.has(frame.rpcId) && !noted.has(frame.rpcId)) return;
        close(frame.rpcId, resolvedPayload(frame, pending.size));
      }
    },
    recount(now) {
      const kept = [...own].map((rpcId) => pending.get(rpcId)!);
      const before = new Set(pending.keys());
      pending.clear();
      read.clear();
      for (const frame of [...now, ...kept]) {
        pending.set(frame.rpcId, frame);
        if (!before.has(frame.rpcId)) read.add(frame.rpcId);
      }
      endWaits();
    },
    routes: () => [
      {
        pattern: /^\/api\/push\/key$/,
        methods: {
          GET: ({ response }) => sendJson(response, 200, { publicKey: keys.publicKey }),
        },
      },
      subscriptions.route(),
    ],
    async loginRotated(fromDigest, toDigest) {
      await store.moveOwner(fromDigest, toDigest);
    },
    async loginRevoked(digestOfLogin) {
      const gone = (await store.listSubscriptions()).filter((subscription) => subscription.owner === digestOfLogin);
      const count = await store.deleteOwner(digestOfLogin);
      if (count > 0) log({ event: "push/owner-gone", count });
      farewell(gone);
    },
    idle,
    close() {
      closing ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, closeGraceMs)));
        await Promise.race([idle(), grace]);
        clearTimeout(timer);
        stopping.abort();
        await idle();
        await store.close();
      })();
      return closing;
    },
  };
}
