import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { itKeepsCatalogParity } from "../../i18n/catalog-testing";
import { LocaleProvider } from "../../i18n/i18n";
import { pushCopy } from "./copy";
import { DeviceSettings } from "./device-settings";
import { DeviceSettingsSlot } from "./device-slot";
import { hidesText } from "./hide-text";
import { markPushSettingsReady } from "./settings-ready";
import { captureInstallPrompt } from "./install-prompt";

const PHONE = "https://fcm.googleapis.com/fcm/send/phone";
const LAPTOP = "https://updates.push.services.mozilla.com/wpush/v2/laptop";
const KEYS = { p256dh: "BOr8".padEnd(87, "A"), auth: "c2VjcmV0c2VjcmV0c2VjcmV0" };

interface Listed {
  endpoint: string;
  label: string | null;
  hideText: boolean;
  createdAt: string;
  mine: boolean;
}

let listed: Listed[];
let current: ReturnType<typeof subscription> | null;
let posts: Record<string, unknown>[];
let deletes: string[];

/** The host's VAPID public key as `/api/push/key` serves it, and as bytes. */
const HOST_KEY = "BOr8".padEnd(87, "A");
const bytesOf = (base64url: string) => Uint8Array.from(atob(base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(88, "=")), (char) => char.charCodeAt(0));

function subscription(endpoint: string, key = HOST_KEY) {
  return { endpoint, options: { applicationServerKey: bytesOf(key).buffer }, toJSON: () => ({ endpoint, expirationTime: null, keys: KEYS }), unsubscribe: vi.fn(async () => true) };
}

beforeEach(() => {
  listed = [{ endpoint: LAPTOP, label: "Linux · Firefox", hideText: false, createdAt: "2026-12-01T00:00:00.000Z", mine: false }];
  current = null;
  posts = [];
  deletes = [];
  vi.stubGlobal("PushManager", function PushManager() {});
  vi.stubGlobal("Notification", { requestPermission: vi.fn(async () => "granted") });
  Object.defineProperty(navigator, "userAgent", { configurable: true, value: "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36" });
  const pushManager = {
    getSubscription: async () => current,
    subscribe: vi.fn(async () => (current = subscription(PHONE))),
  };
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { ready: Promise.resolve({ pushManager }) } });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === "/api/push/key") return Response.json({ publicKey: HOST_KEY });
      if (init?.method === "POST") {
        const body = JSON.parse(String(init.body)) as Record<string, unknown> & { endpoint: string; label: string; hideText: boolean };
        posts.push(body);
        listed = [...listed.filter((device) => device.endpoint !== body.endpoint), { endpoint: body.endpoint, label: body.label, hideText: body.hideText, createdAt: "2026-12-01T00:00:00.000Z", mine: true }];
        return Response.json({}, { status: 201 });
      }
      if (init?.method === "DELETE") {
        const { endpoint } = JSON.parse(String(init.body)) as { endpoint: string };
        deletes.push(endpoint);
        listed = listed.filter((device) => device.endpoint !== endpoint);
        return new Response(null, { status: 204 });
      }
      return Response.json({ subscriptions: listed });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

it("turns notifications on for this device with its PushSubscription and label, lists it as This device beside the others, and turns them off", async () => {
  const user = userEvent.setup();
  render(<DeviceSettings />);
  await user.click(await screen.findByText("Push to devices"));
  const list = screen.getByRole("list");
  expect(within(list).getByText("Linux · Firefox")).toBeVisible();
  await user.click(screen.getByRole("button", { name: "Notify me on this device" }));
  expect(await within(list).findByText("This device")).toBeVisible();
  expect(posts).toEqual([{ endpoint: PHONE, expirationTime: null, keys: KEYS, label: "Pixel 8 · Chrome", hideText: false }]);
  expect(hidesText()).toBe(false);
  await user.click(screen.getByRole("checkbox", { name: /Hide the question/ }));
  expect(await screen.findByRole("checkbox", { name: /Hide the question/ })).toBeChecked();
  expect(posts.at(-1)).toMatchObject({ endpoint: PHONE, hideText: true });
  // The tab's own notifications (Notify me) follow this device's choice.
  expect(hidesText()).toBe(true);
  await user.click(screen.getByRole("button", { name: "Stop notifications on this device" }));
  expect(await screen.findByRole("button", { name: "Notify me on this device" })).toBeVisible();
  expect(deletes).toEqual([PHONE]);
  expect(hidesText()).toBe(false);
  const laptop = within(screen.getByRole("list")).getByText("Linux · Firefox").closest("li")!;
  await user.click(within(laptop as HTMLElement).getByRole("button", { name: "Remove" }));
  expect(await screen.findByText("None yet.")).toBeVisible();
  expect(deletes).toEqual([PHONE, LAPTOP]);
}, 30_000);

it("keeps this browser's subscription made for the host's key, and replaces one made for another key (the host's data was reset)", async () => {
  const user = userEvent.setup();
  const pushManager = (await navigator.serviceWorker.ready).pushManager as unknown as { subscribe: ReturnType<typeof vi.fn> };
  const kept = subscription(PHONE);
  current = kept;
  const { unmount } = render(<DeviceSettings />);
  await user.click(await screen.findByText("Push to devices"));
  await user.click(screen.getByRole("button", { name: "Notify me on this device" }));
  await screen.findByText("This device");
  expect([pushManager.subscribe.mock.calls.length, kept.unsubscribe.mock.calls.length, posts.map((post) => post.endpoint)]).toEqual([0, 0, [PHONE]]);
  unmount();

  const stale = subscription("https://fcm.googleapis.com/fcm/send/old-key", "BAbc".padEnd(87, "B"));
  current = stale;
  listed = [];
  posts = [];
  render(<DeviceSettings />);
  await user.click(await screen.findByText("Push to devices"));
  await user.click(screen.getByRole("button", { name: "Notify me on this device" }));
  await screen.findByText("This device");
  expect(stale.unsubscribe).toHaveBeenCalledTimes(1);
  expect(pushManager.subscribe.mock.calls).toEqual([[{ userVisibleOnly: true, applicationServerKey: bytesOf(HOST_KEY) }]]);
  expect(posts.map((post) => post.endpoint)).toEqual([PHONE]);
});

it("shows nothing when the host offers no Web Push", async () => {
  vi.stubGlobal("fetch", vi.fn(async () => Response.json({ error: { code: "NOT_FOUND", message: "no route" } }, { status: 404 })));
  const { container } = render(<DeviceSettings />);
  await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
  expect(container).toBeEmptyDOMElement();
});

/** The browser's install offer as Chromium fires it: `prompt()` shows the dialog, `userChoice` says what the human chose. */
function offerInstall(outcome: "accepted" | "dismissed") {
  const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), { prompt: vi.fn(async () => undefined), userChoice: Promise.resolve({ outcome }) });
  window.dispatchEvent(event);
  return event;
}

it("offers install and notifications in one tap where the browser can install Parley: both asked within the tap, then the offer goes", async () => {
  const user = userEvent.setup();
  captureInstallPrompt();
  const install = offerInstall("accepted");
  expect(install.defaultPrevented).toBe(true);
  render(<DeviceSettings />);
  const offer = await screen.findByRole("region", { name: "Questions on this device" });
  await user.click(within(offer).getByRole("button", { name: "Install and notify me" }));
  expect(install.prompt).toHaveBeenCalledTimes(1);
  expect(Notification.requestPermission).toHaveBeenCalledTimes(1);
  await vi.waitFor(() => expect(screen.queryByRole("region", { name: "Questions on this device" })).toBeNull());
  expect(posts).toEqual([{ endpoint: PHONE, expirationTime: null, keys: KEYS, label: "Pixel 8 · Chrome", hideText: false }]);
});

it("offers notifications alone on a touch device the browser offers no install for, says why when they are blocked, and stays away once dismissed", async () => {
  const user = userEvent.setup();
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: query === "(pointer: coarse)" }));
  vi.stubGlobal("Notification", { requestPermission: vi.fn(async () => "denied") });
  const { unmount } = render(<DeviceSettings />);
  const offer = await screen.findByRole("region", { name: "Questions on this device" });
  await user.click(within(offer).getByRole("button", { name: "Turn on notifications" }));
  expect(await within(offer).findByRole("alert")).toHaveTextContent("Notifications are blocked for Parley in this browser's settings.");
  expect(posts).toEqual([]);
  await user.click(within(offer).getByRole("button", { name: "Not now" }));
  expect(screen.queryByRole("region", { name: "Questions on this device" })).toBeNull();
  unmount();
  render(<DeviceSettings />);
  expect(await screen.findByText("Push to devices")).toBeVisible();
  expect(screen.queryByRole("region", { name: "Questions on this device" })).toBeNull();
});

it("speaks the UI's language: the settings, the devices, the host's refusal and the phone offer in Chinese", async () => {
  const user = userEvent.setup();
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: query === "(pointer: coarse)" }));
  const answering = vi.mocked(fetch).getMockImplementation()!;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => (init?.method === "POST" ? Response.json({ error: { code: "INTERNAL", message: "disk full" } }, { status: 503 }) : answering(url, init))),
  );
  render(
    <LocaleProvider initial="zh-CN" setsDocumentLanguage={false}>
      <DeviceSettings />
    </LocaleProvider>,
  );
  const offer = await screen.findByRole("region", { name: "此设备上的问题" });
  expect(offer.parentElement).toBe(document.body);
  await user.click(within(offer).getByRole("button", { name: "以后再说" }));
  await user.click(screen.getByText("推送到设备"));
  const settings = screen.getByRole("region", { name: "你的设备上的通知" });
  expect(within(settings).getByRole("heading", { name: "接收通知的设备" })).toBeVisible();
  expect(within(settings).getByText("Linux · Firefox")).toBeVisible();
  expect(within(settings).getByRole("button", { name: "移除" })).toBeVisible();
  await user.click(within(settings).getByRole("button", { name: "在此设备上通知我" }));
  expect(await within(settings).findByRole("alert")).toHaveTextContent("主机返回了 503。请重试。");
  expect(posts).toEqual([]);
});

it("loads the settings into the sidebar's place only once the service worker is registered", async () => {
  const { container } = render(<DeviceSettingsSlot />);
  expect(container).toBeEmptyDOMElement();
  markPushSettingsReady();
  expect(await screen.findByText("Push to devices")).toBeVisible();
});

describe("the push copy", () => {
  itKeepsCatalogParity(pushCopy);
});
