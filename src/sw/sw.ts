import type { PushAction, PushPayload, RequestPush } from "../host/push/payload";
import { takesSilentPushes } from "../protocol/push-services";

/**
 * Parley's service worker: keeps the app shell for offline starts, shows each pushed request as a notification,
 * answers from a notification's action with the device's login, and closes the notification when the request is resolved.
 */

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface ShownNotification {
  tag: string;
  data: unknown;
  /** When it was shown, in ms since the epoch. */
  timestamp: number;
  close(): void;
}
interface NotificationEvent extends ExtendableEvent {
  action: string;
  notification: ShownNotification;
}
interface DeviceSubscription {
  endpoint: string;
  toJSON(): unknown;
}
/** Older Firefox sends it with neither subscription (undefined), the spec with either one null. */
interface PushSubscriptionChangeEvent extends ExtendableEvent {
  oldSubscription?: { endpoint: string } | null;
  newSubscription?: DeviceSubscription | null;
}
interface WindowClient {
  id: string;
  url: string;
  visibilityState: DocumentVisibilityState;
  focused: boolean;
  focus(): Promise<WindowClient>;
  postMessage(message: unknown, options?: { transfer: MessagePort[] }): void;
}
interface WorkerScope {
  registration: {
    showNotification(title: string, options: Record<string, unknown>): Promise<void>;
    getNotifications(filter?: { tag?: string }): Promise<ShownNotification[]>;
    pushManager: {
      subscribe(options: { userVisibleOnly: boolean; applicationServerKey: string }): Promise<DeviceSubscription>;
      getSubscription(): Promise<DeviceSubscription | null>;
    };
  };
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  location: Location;
  navigator: Navigator & { setAppBadge?(count?: number): Promise<void>; clearAppBadge?(): Promise<void>; locks?: { request<T>(name: string, callback: () => Promise<T>): Promise<T> } };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, listener: (event: never) => void): void;
}

const scope = self as unknown as WorkerScope;
const BUILD = "__PARLEY_BUILD__";
const SHELL_CACHE = `parley-shell-${BUILD}`;
const SHELL_FILES = ["/manifest.webmanifest", "/favicon.svg", "/icons/icon-192.png", "/icons/icon-512.png", "/icons/maskable-192.png", "/icons/maskable-512.png"];

async function cacheShell(): Promise<void> {
  const cache = await caches.open(SHELL_CACHE);
  const page = await fetch("/", { cache: "no-store", credentials: "same-origin" });
  if (!page.ok) throw new Error(`the app shell answered ${page.status}`);
  const html = await page.clone().text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
  await cache.addAll([...new Set([...assets, ...SHELL_FILES])]);
  await cache.put("/", page);
}

scope.addEventListener("install", (event: ExtendableEvent) => event.waitUntil(cacheShell()));

scope.addEventListener("activate", (event: ExtendableEvent) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith("parley-shell-") && name !== SHELL_CACHE) await caches.delete(name);
      await scope.clients.claim();
    })(),
  );
});

/** The chat each window said it shows (`parley/showing`), by the window's id; lost when the worker stops, as it may at any time. */
const shownChats = new Map<string, string | null>();

/**
 * How much older than a window's news of the pending requests a notification must be for that news to close it: a request
 * asked just after the host's replay can have its push outrun the window's socket, and its notification must stay.
 */
const PUSH_OUTRUNS_SOCKET_MS = 5000;

/**
 * A window of the app knows every request pending on the host (its socket's replay is in, or a request was resolved since):
 * the notification of any other request, shown before, is stale (its close push never came: the host died, or the device
 * is on Apple's push service, which gets none) and closes; the badge shows the window's count (docs/protocol.md, push-close).
 */
async function closeAllBut(pending: ReadonlySet<string>, knownAt: number): Promise<void> {
  for (const notification of await scope.registration.getNotifications()) {
    const rpcId = (notification.data as { rpcId?: unknown } | null)?.rpcId;
    if (typeof rpcId === "string" && !pending.has(rpcId) && notification.timestamp < knownAt - PUSH_OUTRUNS_SOCKET_MS) notification.close();
  }
  await setBadge(pending.size);
}

scope.addEventListener("message", (event: MessageEvent) => {
  const data = event.data as { type?: unknown; sessionId?: unknown; rpcIds?: unknown; at?: unknown } | null;
  if (data?.type === "skip-waiting") void scope.skipWaiting();
  const source = event.source as { id?: unknown; url?: unknown } | null;
  if (data?.type === "parley/showing" && typeof source?.id === "string") shownChats.set(source.id, typeof data.sessionId === "string" ? data.sessionId : null);
  // Only the app's own windows know the host's requests: the designers' `/demo` shows made-up ones.
  const fromApp = typeof source?.url === "string" && isAppWindow(source as WindowClient);
  const { rpcIds, at } = data ?? {};
  if (data?.type === "parley/pending" && fromApp && Array.isArray(rpcIds) && rpcIds.every((id) => typeof id === "string") && typeof at === "number") {
    keepAlive(event as unknown as ExtendableEvent, closeAllBut(new Set(rpcIds), at));
  }
});

async function fromShell(request: Request): Promise<Response> {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** What a reverse proxy answers for a host behind it that is down (Bad Gateway, Service Unavailable, Gateway Timeout). */
const HOST_DOWN = new Set([502, 503, 504]);

/** How long a page load waits for the host before the cached shell opens instead (a host on a network out of reach can hang for a minute). */
const NAVIGATE_WAIT_MS = 4000;

/** A page load: the network's answer, or the cached shell (saying the host is unreachable) when none comes, or none in NAVIGATE_WAIT_MS. */
async function navigate(event: FetchEvent): Promise<Response> {
  const { request } = event;
  const shell = async () => (await caches.open(SHELL_CACHE)).match("/");
  const network = fetch(request);
  // A login link (`?token=`) waits for its answer, which sets the login: the shell in its place would leave it unset.
  const waitMs = new URL(request.url).searchParams.has("token") ? null : NAVIGATE_WAIT_MS;
  let response: Response;
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = waitMs === null ? undefined : setTimeout(() => resolve(null), waitMs)));
    const first = await Promise.race([network, late]).finally(() => clearTimeout(timer));
    const cached = first === null ? await shell() : undefined;
    if (cached) {
      // The page opens from the shell; the load under way is kept alive to its end (its answer may set a cookie), unread.
      event.waitUntil(network.then(() => undefined, () => undefined));
      return cached;
    }
    response = first ?? (await network);
  } catch (error) {
    const cached = await shell();
    if (cached) return cached;
    throw error;
  }
  if (!HOST_DOWN.has(response.status)) return response;
  return (await shell()) ?? response;
}

scope.addEventListener("fetch", (event: FetchEvent) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== scope.location.origin || url.pathname.startsWith("/api/") || url.pathname === "/mcp") return;
  if (request.mode === "navigate") return event.respondWith(navigate(event));
  if (url.pathname.startsWith("/assets/") || SHELL_FILES.includes(url.pathname)) event.respondWith(fromShell(request));
});

async function setBadge(count: number): Promise<void> {
  const navigator = scope.navigator;
  try {
    if (count > 0) await navigator.setAppBadge?.(count);
    else await navigator.clearAppBadge?.();
  } catch {
    return;
  }
}

function sessionUrl(sessionId: string): string {
  return `/#session=${encodeURIComponent(sessionId)}`;
}

/** How long a window has to say which chat it shows when this worker asks; one that does not counts as not watching. */
const WHICH_CHAT_WAIT_MS = 250;

/** Asks a window which chat it shows (`parley/which-chat`, answered on the port sent with it); undefined when it does not answer in time. */
function askShownChat(client: WindowClient): Promise<string | null | undefined> {
  const channel = new MessageChannel();
  return new Promise((resolve) => {
    const timer = setTimeout(() => (channel.port1.close(), resolve(undefined)), WHICH_CHAT_WAIT_MS);
    channel.port1.onmessage = (event: MessageEvent) => {
      clearTimeout(timer);
      channel.port1.close();
      const sessionId = (event.data as { sessionId?: unknown } | null)?.sessionId;
      resolve(typeof sessionId === "string" ? sessionId : null);
    };
    client.postMessage({ type: "parley/which-chat" }, { transfer: [channel.port2] });
  });
}

/** Whether the human is looking at this chat in a Parley window on this device: its panel shows the request, so no notification is needed. */
async function watchedWindow(sessionId: string): Promise<boolean> {
  const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const [id] of shownChats) if (!windows.some((client) => client.id === id)) shownChats.delete(id);
  const inView = windows.filter((client) => client.visibilityState === "visible" && client.focused && isAppWindow(client));
  // A window in view that has not told this worker since it started (stopped while idle) is asked; one that does not answer is not watching.
  for (const client of inView) {
    if (shownChats.has(client.id)) continue;
    const shown = await askShownChat(client);
    if (shown !== undefined) shownChats.set(client.id, shown);
  }
  return inView.some((client) => shownChats.get(client.id) === sessionId);
}

function maxActions(): number {
  const limit = (globalThis as { Notification?: { maxActions?: number } }).Notification?.maxActions;
  return typeof limit === "number" ? limit : 2;
}

/** Whether this device's push service lets a push end with no notification shown (Apple's does not: docs/protocol.md, push-close). */
async function silentAllowed(): Promise<boolean> {
  const subscription = await scope.registration.pushManager.getSubscription();
  return subscription === null || takesSilentPushes(subscription.endpoint);
}

/**
 * Runs `work` under the Web Lock of request `rpcId`'s notification, the one a tab's `Notify me` takes to check and show
 * (protocol/notification-lock.ts, whose name this must match: the page's modules stay out of the worker's one script).
 */
function underNotificationLock<T>(rpcId: string, work: () => Promise<T>): Promise<T> {
  const locks = scope.navigator.locks;
  return locks ? locks.request(`parley-notification:${rpcId}`, work) : work();
}

/** Requests whose close push came, the latest few: a request push handled after its close push (a browser may handle pushes side by side) shows nothing. */
const closedRequests = new Set<string>();
const CLOSED_KEPT = 200;

function noteClosed(rpcId: string) {
  closedRequests.delete(rpcId);
  closedRequests.add(rpcId);
  if (closedRequests.size > CLOSED_KEPT) closedRequests.delete(closedRequests.values().next().value!);
}

async function showRequest(push: RequestPush): Promise<void> {
  // Under the lock a tab's `Notify me` takes to check and show (a tab's notification shown meanwhile is replaced, not the
  // push's), taken first: a close push for the request handled meanwhile waits for this one, or came before and is known.
  await underNotificationLock(push.rpcId, async () => {
    if (closedRequests.has(push.rpcId)) return;
    await setBadge(push.pending);
    if ((await watchedWindow(push.sessionId)) && (await silentAllowed())) return;
    const actions = push.actions.length <= maxActions() ? push.actions : [];
    // Looked at again: without Web Locks a close push may have come while the window was looked for.
    if (closedRequests.has(push.rpcId)) return;
    await scope.registration.showNotification(push.title, {
      body: push.body,
      tag: push.rpcId,
      icon: "/icons/icon-192.png",
      badge: "/icons/maskable-192.png",
      requireInteraction: true,
      data: { rpcId: push.rpcId, sessionId: push.sessionId, actions },
      actions: actions.map((action) => ({ action: action.action, title: action.title })),
    });
  });
}

async function closeRequest(rpcId: string, pending: number): Promise<void> {
  // A tab's notification being shown now is closed too, once it is.
  await underNotificationLock(rpcId, async () => {
    noteClosed(rpcId);
    for (const notification of await scope.registration.getNotifications({ tag: rpcId })) notification.close();
  });
  await setBadge(pending);
}

function isPayload(value: unknown): value is PushPayload {
  const payload = value as Partial<PushPayload> | null;
  return typeof payload === "object" && payload !== null && payload.v === 1 && typeof payload.rpcId === "string" && typeof payload.sessionId === "string";
}

/** Keeps the worker alive for `work`, which has already started: an event dispatched by a page's test harness cannot be extended, and the work still runs. */
function keepAlive(event: ExtendableEvent, work: Promise<unknown>) {
  try {
    event.waitUntil(work);
  } catch {
    return;
  }
}

scope.addEventListener("push", (event: PushEvent) => {
  let payload: unknown;
  try {
    payload = event.data?.json();
  } catch {
    return;
  }
  if (!isPayload(payload)) return;
  keepAlive(event, payload.kind === "request" ? showRequest(payload) : closeRequest(payload.rpcId, payload.pending));
});

/** Whether a window is the app (not the designers' `/demo`, which takes no chat). */
function isAppWindow(client: WindowClient): boolean {
  const url = new URL(client.url);
  return url.origin === scope.location.origin && !/^\/demo(\/|$)/.test(url.pathname);
}

/** Opens Parley at the request's chat: an app window already open is focused and told which chat, so nothing typed there is lost. */
async function openAt(sessionId: string, rpcId: string): Promise<void> {
  const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find(isAppWindow);
  if (open) {
    open.postMessage({ type: "parley/open-request", sessionId, rpcId });
    await open.focus();
    return;
  }
  await scope.clients.openWindow(sessionUrl(sessionId));
}

/**
 * How long an action's answer may take before the app is opened at the request instead: a worker may open or focus a window
 * only for a while after the tap (10 s in Chromium), so a host that does not answer (asleep, unreachable) must not use it up.
 */
const ANSWER_TIMEOUT_MS = 6000;

async function answer(data: { rpcId: string; sessionId: string }, action: PushAction): Promise<boolean> {
  try {
    const response = await fetch("/api/respond", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ type: "answer", rpcId: data.rpcId, sessionId: data.sessionId, answers: action.answers }),
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    if (!response.ok) return false;
    return ((await response.json()) as { accepted?: unknown }).accepted === true;
  } catch {
    return false;
  }
}

scope.addEventListener("notificationclick", (event: NotificationEvent) => {
  const data = event.notification.data as { rpcId: string; sessionId: string; actions: PushAction[] } | null;
  event.notification.close();
  if (data === null || typeof data !== "object") return;
  const action = event.action ? data.actions.find((candidate) => candidate.action === event.action) : undefined;
  keepAlive(
    event,
    (async () => {
      if (action && (await answer(data, action))) return;
      await openAt(data.sessionId, data.rpcId);
    })(),
  );
});

const JSON_HEADERS = { "Content-Type": "application/json" };

/**
 * The browser replaced this device's subscription (Firefox does when one expires): the host gets the new one with the old
 * one's label and text setting, and forgets the old one. A device whose old subscription the host no longer lists had
 * notifications turned off or removed, and stays so. When the browser does not say which subscription it replaced (older
 * Firefox), nothing is sent: whether the device was removed cannot be told, and the app's device settings offer
 * notifications again on its next open.
 */
async function resubscribe(event: PushSubscriptionChangeEvent): Promise<void> {
  const old = event.oldSubscription ?? null;
  if (old === null) return;
  const listing = await fetch("/api/push/subscriptions", { credentials: "include" });
  if (!listing.ok) return;
  const devices = ((await listing.json()) as { subscriptions: { endpoint: string; label: string | null; hideText: boolean }[] }).subscriptions;
  const before = devices.find((device) => device.endpoint === old.endpoint);
  if (before === undefined) return;
  let next = event.newSubscription ?? null;
  if (next === null) {
    const key = await fetch("/api/push/key", { credentials: "include" });
    if (!key.ok) return;
    const { publicKey } = (await key.json()) as { publicKey: string };
    next = await scope.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
  }
  const body = { ...(next.toJSON() as object), label: before.label, hideText: before.hideText };
  const posted = await fetch("/api/push/subscriptions", { method: "POST", credentials: "include", headers: JSON_HEADERS, body: JSON.stringify(body) });
  // Not taken: the old one stays listed, so the device's settings show it and nothing is removed that was not replaced.
  if (!posted.ok) return;
  if (old.endpoint !== next.endpoint) {
    await fetch("/api/push/subscriptions", { method: "DELETE", credentials: "include", headers: JSON_HEADERS, body: JSON.stringify({ endpoint: old.endpoint }) });
  }
}

scope.addEventListener("pushsubscriptionchange", (event: PushSubscriptionChangeEvent) => keepAlive(event, resubscribe(event)));

