import type { IncomingMessage } from "node:http";
import { z } from "zod/mini";
import { HttpError, parseBody, readJson, sendJson, type Route, type RouteContext } from "../http/http";
import type { Logger } from "../log";
import { endpointAllowed } from "./push-delivery";
import type { PushStore, StoredPushSubscription } from "./push-store";

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

/** What keeping the subscriptions takes: the store, whose request is whose, and how many to keep. */
export interface PushSubscriptionsOptions {
  store: PushStore;
  log: Logger;
  /** Whether loopback endpoints may subscribe (see `endpointAllowed`). */
  allowLoopback: boolean;
  ownerOf(request: IncomingMessage): string;
  /** Whether an owner still has a live login; without it every owner is live. */
  ownerLive?(owner: string): Promise<boolean>;
  /** At most this many subscriptions are kept; the oldest goes for a new one. */
  maxSubscriptions: number;
  /** Given the subscriptions of owners found dead, as they are dropped. */
  onGone?(subscriptions: StoredPushSubscription[]): void;
  now(): number;
}

/** The devices' subscriptions: the route that adds, lists and removes them, and the list the pushes go to. */
export interface PushSubscriptions {
  /** The subscriptions whose owner still lives; a dead owner's are dropped. */
  live(): Promise<StoredPushSubscription[]>;
  /** `GET|POST|DELETE /api/push/subscriptions` (docs/protocol.md, push-*). */
  route(): Route;
}

function view(subscription: StoredPushSubscription, owner: string) {
  return { endpoint: subscription.endpoint, label: subscription.label, hideText: subscription.hideText, createdAt: new Date(subscription.createdAt).toISOString(), mine: subscription.owner === owner };
}

/** Keeps the devices' subscriptions in the store, each with its owner, and drops those of owners whose login is gone. */
export function createPushSubscriptions(options: PushSubscriptionsOptions): PushSubscriptions {
  const { store, log } = options;

  async function live(): Promise<StoredPushSubscription[]> {
    const all = await store.listSubscriptions();
    if (!options.ownerLive) return all;
    const verdicts = new Map<string, boolean>();
    for (const owner of new Set(all.map((subscription) => subscription.owner))) verdicts.set(owner, await options.ownerLive(owner));
    for (const [owner, isLive] of verdicts) {
      if (isLive) continue;
      const count = await store.deleteOwner(owner);
      log({ event: "push/owner-gone", count });
      options.onGone?.(all.filter((subscription) => subscription.owner === owner));
    }
    return all.filter((subscription) => verdicts.get(subscription.owner));
  }

  async function subscribe(context: RouteContext) {
    const body = parseBody(SubscriptionBody, await readJson(context.request, false));
    if (!endpointAllowed(body.endpoint, options.allowLoopback)) throw new HttpError(400, "INVALID_BODY", "invalid body: endpoint: the host sends pushes only to https endpoints");
    const owner = options.ownerOf(context.request);
    const all = await store.listSubscriptions();
    const existing = all.filter((subscription) => subscription.endpoint !== body.endpoint);
    const previous = all.find((subscription) => subscription.endpoint === body.endpoint);
    for (const oldest of existing.slice(0, Math.max(0, existing.length - options.maxSubscriptions + 1))) await store.deleteSubscription(oldest.endpoint);
    const subscription: StoredPushSubscription = {
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      owner,
      label: body.label?.trim() || null,
      hideText: body.hideText ?? false,
      createdAt: previous?.createdAt ?? options.now(),
    };
    await store.putSubscription(subscription);
    log({ event: "push/subscribed", replaced: previous !== undefined });
    sendJson(context.response, previous ? 200 : 201, { subscription: view(subscription, owner) });
  }

  return {
    live,
    route: () => ({
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
    }),
  };
}
