import { createHash } from "node:crypto";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import webpush from "web-push";
import { namesNoPushService, type Lookup } from "./push-address";
import type { Logger } from "../log";
import type { PushPayload } from "./payload";
import type { PushStore, StoredPushSubscription, VapidKeys } from "./push-store";

/**
 * How sends that a push service turns away for now (429, 5xx, no answer) are retried. A request push is tried again for as
 * long as its request is pending (within the push's time to live); a close push, `attempts` times within `maxDelayMs`.
 */
export interface PushRetry {
  /** A close push's retries after the first attempt; default 4. */
  attempts: number;
  /** The first wait when the push service names none; doubled each time; default 1 s. */
  baseDelayMs: number;
  /** The longest doubled wait (a request push's `Retry-After` may be longer); a close push waiting longer is given up; default 60 s. */
  maxDelayMs: number;
}

export type SendOutcome = "sent" | "gone" | "refused" | "gave-up" | "skipped";

const TTL_SECONDS = 24 * 60 * 60;
/** A request push waits at most this long in all for its push service: past it, the service would drop it anyway. */
const TTL_MS = TTL_SECONDS * 1000;
const LOOPBACK_HOST = "127.0.0.1";

/** Whether the host may send to this endpoint: `https` to a push service's name or public address only, except `http`/`https` on 127.0.0.1 when loopback is allowed. */
export function endpointAllowed(endpoint: string, allowLoopback: boolean): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username !== "" || url.password !== "") return false;
  const loopback = url.hostname === LOOPBACK_HOST;
  if (loopback) return allowLoopback && (url.protocol === "https:" || url.protocol === "http:");
  return url.protocol === "https:" && !namesNoPushService(url.hostname);
}

/** A `Retry-After` in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A push service's topic for a request: the resolve push then replaces a request push the device has not fetched yet. */
function topicOf(rpcId: string): string {
  return createHash("sha256").update(rpcId).digest("base64url").slice(0, 32);
}

/** Waits `ms`, or less when `signal` aborts first (not at all when it already has). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
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

/** What sending pushes takes: where the subscriptions live, how to sign and retry, and when to stop. */
export interface PushDeliveryOptions {
  store: PushStore;
  log: Logger;
  keys: VapidKeys;
  /** The VAPID `sub` claim. */
  subject: string;
  allowLoopback: boolean;
  retry: PushRetry;
  /** How long one request to a push service may take. */
  timeoutMs: number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  now(): number;
  /** Aborted at close: no attempt starts any more, and requests in flight stop. */
  stopping: AbortSignal;
  /** Whether a request is still pending; a request push for one that already ended is skipped. */
  isPending(rpcId: string): boolean;
  /** Aborted once the request leaves the pending table (already, when it is not pending): a request push waiting to be retried stops waiting. */
  ended(rpcId: string): AbortSignal;
  /** The subscriptions a frame's pushes go to, listed once per frame. */
  subscriptions(): Promise<StoredPushSubscription[]>;
  /** Resolves a push service's name; fails one that resolves to an address no push service has (`publicOnlyLookup`). */
  lookup: Lookup;
}

/**
 * Sends one push to one device. What a push service turns away for now (429, 5xx, no answer) is retried with a
 * doubling wait or its `Retry-After`: a request push while its request is pending, a close push a few times (PushRetry);
 * a subscription that is gone (404, 410) or whose endpoint is not allowed is dropped.
 */
async function deliver(options: PushDeliveryOptions, subscription: StoredPushSubscription, payload: PushPayload): Promise<SendOutcome> {
  const { store, log, keys, retry } = options;
  const firstAt = options.now();
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    if (options.stopping.aborted) return "gave-up";
    if (payload.kind === "request" && !options.isPending(payload.rpcId)) return "skipped";
    if (!endpointAllowed(subscription.endpoint, options.allowLoopback)) {
      await store.deleteSubscription(subscription.endpoint);
      log({ event: "push/endpoint-refused" });
      return "refused";
    }
    const details = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, JSON.stringify(payload), {
      vapidDetails: { subject: options.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      contentEncoding: "aes128gcm",
      TTL: TTL_SECONDS,
      urgency: "high",
      topic: topicOf(payload.rpcId),
    });
    let status: number;
    let wait: number | null = null;
    try {
      const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.stopping]);
      const response = await post(details.endpoint, details.headers as Record<string, string>, details.body, signal, options.lookup);
      status = response.status;
      wait = retryAfterMs(firstHeader(response.headers["retry-after"]), options.now());
    } catch (error) {
      // A name that resolves to this machine or its network is no push service: nothing is sent, and it is not retried.
      if ((error as { code?: unknown }).code === "ENOTPUBLIC") {
        log({ event: "push/address-refused" });
        return "refused";
      }
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
    // A `Retry-After` of 0 or in the past still waits the backoff: it never turns the retries into a burst.
    const backoff = Math.min(retry.baseDelayMs * 2 ** attempt, retry.maxDelayMs);
    const delay = Math.max(wait ?? 0, payload.kind === "request" ? backoff : retry.baseDelayMs * 2 ** attempt);
    // The time to live counts from the first attempt: the waits, and the attempts that took their own time (a timeout).
    const givenUp = payload.kind === "request" ? Math.max(waited, options.now() - firstAt) + delay > TTL_MS : attempt >= retry.attempts || delay > retry.maxDelayMs;
    if (givenUp) {
      log({ event: "push/gave-up", status, attempts: attempt + 1, retryAfterMs: wait });
      return "gave-up";
    }
    waited += delay;
    await options.sleep(delay, payload.kind === "request" ? AbortSignal.any([options.stopping, options.ended(payload.rpcId)]) : options.stopping);
  }
}

const firstHeader = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

/** POSTs one push and reads its answer's status and headers; a redirect is an answer like any other, never followed. */
function post(endpoint: string, headers: Record<string, string>, body: Buffer, signal: AbortSignal, lookup: Lookup): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const url = new URL(endpoint);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const request = send(url, { method: "POST", headers: { ...headers, "Content-Length": String(body.length) }, signal, lookup }, (response) => {
      response.on("error", reject);
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      response.resume();
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** The pushes on their way to the devices. */
export interface PushDelivery {
  /**
   * Sends one frame's push to every subscription: `payloadFor` gives each device its payload, or null when that device
   * gets none of this frame. `beforeSend`, when given, is awaited with the number of devices the frame goes to before any
   * of them is sent to. Resolves once every one of this frame's pushes was sent, dropped or given up, with how each
   * ended (`["gave-up"]` when the devices could not be listed); never rejects.
   */
  fanOut(payloadFor: (subscription: StoredPushSubscription) => PushPayload | null, beforeSend?: (devices: number) => Promise<void>): Promise<SendOutcome[]>;
  /** Sends each payload to each of these devices, in order, whatever the subscriptions listed now (devices whose login ended). */
  sendTo(subscriptions: readonly StoredPushSubscription[], payloads: readonly PushPayload[]): Promise<SendOutcome[]>;
  /** Resolves once every push queued so far was sent, dropped or given up. */
  idle(): Promise<void>;
}

/** Fans each frame's pushes out to the devices, in the order the frames came, through one queue per device. */
export function createPushDelivery(options: PushDeliveryOptions): PushDelivery {
  const { log } = options;
  /** One queue per device, so a resolve push never overtakes its request push. */
  const queues = new Map<string, Promise<SendOutcome>>();
  const inFlight = new Set<Promise<unknown>>();
  /** Frames fan out in the order they came, whatever each listing of the subscriptions takes. */
  let listing: Promise<void> = Promise.resolve();

  function enqueue(subscription: StoredPushSubscription, payload: PushPayload): Promise<SendOutcome> {
    const previous = queues.get(subscription.endpoint) ?? Promise.resolve<SendOutcome>("sent");
    const next = previous.then(async (): Promise<SendOutcome> => {
      try {
        return await deliver(options, subscription, payload);
      } catch (error) {
        log({ event: "push/failed", error: error instanceof Error ? error.message.slice(0, 200) : "unknown" });
        return "gave-up";
      }
    });
    queues.set(subscription.endpoint, next);
    inFlight.add(next);
    void next.finally(() => {
      inFlight.delete(next);
      if (queues.get(subscription.endpoint) === next) queues.delete(subscription.endpoint);
    });
    return next;
  }

  function fanOut(payloadFor: (subscription: StoredPushSubscription) => PushPayload | null, beforeSend?: (devices: number) => Promise<void>): Promise<SendOutcome[]> {
    const failed = (event: string) => (error: unknown) => log({ event, error: error instanceof Error ? error.message.slice(0, 200) : "unknown" });
    // The devices could not be listed: nothing was sent, so a close push counts as given up (its request stays noted).
    let sending: Promise<SendOutcome[]> = Promise.resolve(["gave-up"]);
    const listed = listing.then(() => options.subscriptions()).then(async (subscriptions) => {
      const sends = subscriptions.flatMap((subscription) => {
        const payload = payloadFor(subscription);
        return payload === null ? [] : [{ subscription, payload }];
      });
      // A failed note is logged and the pushes still go: a device's notification matters more than closing it after a crash.
      await beforeSend?.(sends.length).catch(failed("push/note-failed"));
      sending = Promise.all(sends.map(({ subscription, payload }) => enqueue(subscription, payload)));
    }, failed("push/list-failed"));
    listing = listed;
    inFlight.add(listed);
    void listed.finally(() => inFlight.delete(listed));
    return listed.then(() => sending);
  }

  async function idle() {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  const sendTo = (subscriptions: readonly StoredPushSubscription[], payloads: readonly PushPayload[]) =>
    Promise.all(subscriptions.flatMap((subscription) => payloads.map((payload) => enqueue(subscription, payload))));

  return { fanOut, sendTo, idle };
}
