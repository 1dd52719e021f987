import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import webpush from "web-push";
import { z } from "zod/mini";
import type { DownFrame, QuestionRequestedFrame } from "../../protocol/schemas";
import { readCookie } from "../fence/fence";
import { HttpError, parseBody, readJson, sendJson, type Route, type RouteContext } from "../http/http";
import type { Logger } from "../log";
import { requestPayload, resolvedPayload, type PushPayload } from "./payload";
import type { PushStore, StoredPushSubscription, VapidKeys } from "./push-store";

/** How sends that a push service turns away for now (429, 5xx, no answer) are retried. */
export interface PushRetry {
  /** Retries after the first attempt; default 4. */
  attempts: number;
  /** The first wait when the push service names none; doubled each time; default 1 s. */
  baseDelayMs: number;
  /** The longest wait: a `Retry-After` longer than this gives the push up instead; default 60 s. */
  maxDelayMs: number;
}

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

/** Who sends a frame's pushes: the host that produced it. */
export type FrameSource = "here" | "elsewhere";

export type SendOutcome = "sent" | "gone" | "refused" | "gave-up" | "skipped";

const DEFAULT_RETRY: PushRetry = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };
const DEFAULT_SUBJECT = "mailto:parley@example.invalid";
const TTL_SECONDS = 24 * 60 * 60;
const LOOPBACK_HOST = "127.0.0.1";

const base64url = (min: number, max: number) => z.string().check(z.regex(/^[A-Za-z0-9_-]+={0,2}$/), z.minLength(min), z.maxLength(max));
/** `PushSubscription.toJSON()` as a browser gives it, plus the device's label and whether to hide the text. */
export const SubscriptionBody = z.object({
  endpoint: z.string().check(z.minLength(1), z.maxLength(2048)),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({ p256dh: base64url(80, 100), auth: base64url(16, 32) }),
  label: z.optional(z.nullable(z.string().check(z.maxLength(100)))),
  hideText: z.optional(z.boolean()),
});
const EndpointBody = z.object({ endpoint: z.string().check(z.minLength(1), z.maxLength(2048)) });

/** Whether the host may send to this endpoint: `https` only, except `http`/`https` on 127.0.0.1 when loopback is allowed. */
export function endpointAllowed(endpoint: string, allowLoopback: boolean): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username !== "" || url.password !== "") return false;
  const loopback = url.hostname === LOOPBACK_HOST;
  if (loopback) return allowLoopback && (url.protocol === "https:" || url.protocol === "http:");
  const local = url.hostname === "localhost" || url.hostname.endsWith(".localhost") || url.hostname === "[::1]" || /^127\.|^0\./.test(url.hostname);
  return url.protocol === "https:" && !local;
}

/** A `Retry-After` in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

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

/** A push service's topic for a request: the resolve push then replaces a request push the device has not fetched yet. */
function topicOf(rpcId: string): string {
  return createHash("sha256").update(rpcId).digest("base64url").slice(0, 32);
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
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
  const stopping = new AbortController();
  /** This host's pending requests, for the badge count and to skip a request push whose request already ended. */
  const pending = new Map<string, QuestionRequestedFrame>();
  /** One queue per device, so a resolve push never overtakes its request push. */
  const queues = new Map<string, Promise<void>>();
  const inFlight = new Set<Promise<void>>();
  /** Frames fan out in the order they came, whatever each listing of the subscriptions takes. */
  let listing: Promise<void> = Promise.resolve();

  async function deliver(subscription: StoredPushSubscription, payload: PushPayload): Promise<SendOutcome> {
    for (let attempt = 0; ; attempt++) {
      if (stopping.signal.aborted) return "gave-up";
      if (payload.kind === "request" && !pending.has(payload.rpcId)) return "skipped";
      if (!endpointAllowed(subscription.endpoint, options.allowLoopback)) {
        await store.deleteSubscription(subscription.endpoint);
        log({ event: "push/endpoint-refused" });
        return "refused";
      }
      const details = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, JSON.stringify(payload), {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        contentEncoding: "aes128gcm",
        TTL: TTL_SECONDS,
        urgency: "high",
        topic: topicOf(payload.rpcId),
      });
      let status: number;
      let wait: number | null = null;
      try {
        const response = await fetch(details.endpoint, {
          method: "POST",
          headers: details.headers as Record<string, string>,
          body: new Uint8Array(details.body),
          redirect: "manual",
          signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping.signal]),
        });
        await response.arrayBuffer();
        status = response.status;
        wait = retryAfterMs(response.headers.get("retry-after"), now());
      } catch {
        status = 0;
      }
      if (status >= 200 && status < 300) return "sent";
      if (status === 404 || status === 410) {
        await store.deleteSubscription(subscription.endpoint);
        log({ event: "push/subscription-gone", status });
        return "gone";
      }
      if (status !== 0 && status !== 429 && status < 500) {
        log({ event: "push/refused", status });
        return "refused";
      }
      const delay = wait ?? retry.baseDelayMs * 2 ** attempt;
      if (attempt >= retry.attempts || delay > retry.maxDelayMs) {
        log({ event: "push/gave-up", status, attempts: attempt + 1, retryAfterMs: wait });
        return "gave-up";
      }
      await sleep(delay, stopping.signal);
    }
  }

  function enqueue(subscription: StoredPushSubscription, payload: PushPayload) {
    const previous = queues.get(subscription.endpoint) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        await deliver(subscription, payload);
      } catch (error) {
        log({ event: "push/failed", error: error instanceof Error ? error.message.slice(0, 200) : "unknown" });
      }
    });
    queues.set(subscription.endpoint, next);
    inFlight.add(next);
    void next.finally(() => {
      inFlight.delete(next);
      if (queues.get(subscription.endpoint) === next) queues.delete(subscription.endpoint);
    });
  }

  /** The subscriptions whose owner still lives; a dead owner's are dropped. */
  async function liveSubscriptions(): Promise<StoredPushSubscription[]> {
    const all = await store.listSubscriptions();
    if (!options.ownerLive) return all;
    const verdicts = new Map<string, boolean>();
    for (const owner of new Set(all.map((subscription) => subscription.owner))) verdicts.set(owner, await options.ownerLive(owner));
    for (const [owner, live] of verdicts) {
      if (live) continue;
      const count = await store.deleteOwner(owner);
      log({ event: "push/owner-gone", count });
    }
    return all.filter((subscription) => verdicts.get(subscription.owner));
  }

  function fanOut(payloadFor: (subscription: StoredPushSubscription) => PushPayload) {
    const listed = listing.then(liveSubscriptions).then(
      (subscriptions) => {
        for (const subscription of subscriptions) enqueue(subscription, payloadFor(subscription));
      },
      (error: unknown) => log({ event: "push/list-failed", error: error instanceof Error ? error.message.slice(0, 200) : "unknown" }),
    );
    listing = listed;
    inFlight.add(listed);
    void listed.finally(() => inFlight.delete(listed));
  }

  function view(subscription: StoredPushSubscription, owner: string) {
    return { endpoint: subscription.endpoint, label: subscription.label, hideText: subscription.hideText, createdAt: new Date(subscription.createdAt).toISOString(), mine: subscription.owner === owner };
  }

  async function subscribe(context: RouteContext) {
    const body = parseBody(SubscriptionBody, await readJson(context.request, false));
    if (!endpointAllowed(body.endpoint, options.allowLoopback)) throw new HttpError(400, "INVALID_BODY", "invalid body: endpoint: the host sends pushes only to https endpoints");
    const owner = options.ownerOf(context.request);
    const all = await store.listSubscriptions();
    const existing = all.filter((subscription) => subscription.endpoint !== body.endpoint);
    const previous = all.find((subscription) => subscription.endpoint === body.endpoint);
    for (const oldest of existing.slice(0, Math.max(0, existing.length - maxSubscriptions + 1))) await store.deleteSubscription(oldest.endpoint);
    const subscription: StoredPushSubscription = {
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      owner,
      label: body.label?.trim() || null,
      hideText: body.hideText ?? false,
      createdAt: previous?.createdAt ?? now(),
    };
    await store.putSubscription(subscription);
    log({ event: "push/subscribed", replaced: previous !== undefined });
    sendJson(context.response, previous ? 200 : 201, { subscription: view(subscription, owner) });
  }

  let closing: Promise<void> | null = null;
  async function idle() {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  return {
    publicKey: keys.publicKey,
    onFrame(frame, source = "here") {
      if (stopping.signal.aborted) return;
      if (frame.type === "question/requested") {
        const known = pending.has(frame.rpcId);
        pending.set(frame.rpcId, frame);
        if (known || source !== "here") return;
        const count = pending.size;
        fanOut((subscription) => requestPayload(frame, count, subscription.hideText));
      } else if (frame.type === "question/resolved") {
        if (!pending.delete(frame.rpcId) || source !== "here") return;
        const payload = resolvedPayload(frame, pending.size);
        fanOut(() => payload);
      }
    },
    routes: () => [
      {
        pattern: /^\/api\/push\/key$/,
        methods: {
          GET: ({ response }) => sendJson(response, 200, { publicKey: keys.publicKey }),
        },
      },
      {
        pattern: /^\/api\/push\/subscriptions$/,
        methods: {
          async GET({ request, response }) {
            const owner = options.ownerOf(request);
            sendJson(response, 200, { subscriptions: (await store.listSubscriptions()).map((subscription) => view(subscription, owner)) });
          },
          POST: subscribe,
          async DELETE({ request, response }) {
            const body = parseBody(EndpointBody, await readJson(request, false));
            if (!(await store.deleteSubscription(body.endpoint))) throw new HttpError(404, "NOT_FOUND", "no subscription has this endpoint");
            log({ event: "push/unsubscribed" });
            sendJson(response, 204);
          },
        },
      },
    ],
    async loginRotated(fromDigest, toDigest) {
      await store.moveOwner(fromDigest, toDigest);
    },
    async loginRevoked(digestOfLogin) {
      const count = await store.deleteOwner(digestOfLogin);
      if (count > 0) log({ event: "push/owner-gone", count });
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
