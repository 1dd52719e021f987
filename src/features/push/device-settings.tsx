import { useCallback, useEffect, useId, useState } from "react";
import { createPortal } from "react-dom";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { pushCopy } from "./copy";
import { HIDE_TEXT_KEY } from "./hide-text";
import { deviceLabel, hintedModel } from "./device-label";
import { OFFER_SLOT_ID } from "./settings-ready";
import { promptInstall } from "./install-prompt";
import { offerWanted, PhoneOffer, rememberDismissed } from "./phone-offer";

/** One subscribed device as `GET /api/push/subscriptions` lists it. */
interface ListedDevice {
  endpoint: string;
  label: string | null;
  hideText: boolean;
  createdAt: string;
  mine: boolean;
}

type Status = "loading" | "unavailable" | "ready";

/** What went wrong, in the UI's language: one of the catalogue's problems, or the browser's own words for the rest. */
type Problem = { key: "blocked" } | { key: "hostAnswered"; status: number } | { text: string };

/** A host's refusal, carried to the alert with its status. */
class HostRefused extends Error {
  constructor(readonly status: number) {
    super(`the host answered ${status}`);
  }
}

class Blocked extends Error {}

const JSON_HEADERS = { "Content-Type": "application/json" };

function problemOf(error: unknown): Problem {
  if (error instanceof HostRefused) return { key: "hostAnswered", status: error.status };
  if (error instanceof Blocked) return { key: "blocked" };
  return { text: error instanceof Error ? error.message : String(error) };
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "="));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

/** Whether a subscription was made for this key; one whose key the browser does not tell is taken as it is. */
function madeFor(subscription: PushSubscription, key: Uint8Array): boolean {
  const made = subscription.options.applicationServerKey;
  if (made === null) return true;
  const bytes = new Uint8Array(made);
  return bytes.length === key.length && bytes.every((byte, index) => byte === key[index]);
}

/**
 * This browser's subscription for the host's key: the one it holds, or a new one. One made for another key (the host's
 * data was reset, or it moved to another store) would be refused by the push service for ever, so it is replaced.
 */
async function subscriptionFor(pushManager: PushManager, publicKey: string): Promise<PushSubscription> {
  const key = keyBytes(publicKey);
  const held = await pushManager.getSubscription();
  if (held && madeFor(held, key)) return held;
  await held?.unsubscribe();
  return pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

async function listDevices(): Promise<ListedDevice[]> {
  const response = await fetch("/api/push/subscriptions", { credentials: "same-origin" });
  if (!response.ok) throw new HostRefused(response.status);
  return ((await response.json()) as { subscriptions: ListedDevice[] }).subscriptions;
}

/** Remembers this device's choice, as the host lists it for its subscription (none: no push, so nothing to hide). */
function rememberHideText(hide: boolean): void {
  try {
    if (hide) localStorage.setItem(HIDE_TEXT_KEY, "1");
    else localStorage.removeItem(HIDE_TEXT_KEY);
  } catch (error) {
    console.warn("could not remember whether notifications hide the question", error);
  }
}

async function register(subscription: PushSubscription, hideText: boolean): Promise<void> {
  const response = await fetch("/api/push/subscriptions", {
    method: "POST",
    credentials: "same-origin",
    headers: JSON_HEADERS,
    body: JSON.stringify({ ...subscription.toJSON(), label: deviceLabel(navigator.userAgent, await hintedModel()), hideText }),
  });
  if (!response.ok) throw new HostRefused(response.status);
}

async function forget(endpoint: string): Promise<void> {
  const response = await fetch("/api/push/subscriptions", { method: "DELETE", credentials: "same-origin", headers: JSON_HEADERS, body: JSON.stringify({ endpoint }) });
  if (!response.ok && response.status !== 404) throw new HostRefused(response.status);
}

/**
 * This device's push settings: turn notifications on or off, hide their text, and see and remove every device that gets
 * them. Shown only when the host offers Web Push (`GET /api/push/key`). It sits in the sidebar's footer; the phone offer
 * shows above the chat (a portal into the main column's slot), so a phone sees it with its drawer closed.
 */
export function DeviceSettings() {
  const t = useCopy(pushCopy);
  const [status, setStatus] = useState<Status>("loading");
  const [publicKey, setPublicKey] = useState<string | null>(null);
  const [mine, setMine] = useState<PushSubscription | null>(null);
  const [devices, setDevices] = useState<ListedDevice[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [offered, setOffered] = useState(offerWanted);
  const hideId = useId();

  const refresh = useCallback(async () => {
    const registration = await navigator.serviceWorker.ready;
    const current = await registration.pushManager.getSubscription();
    const listed = await listDevices();
    setMine(current);
    setDevices(listed);
    rememberHideText(listed.find((device) => device.endpoint === current?.endpoint)?.hideText ?? false);
    return current;
  }, []);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const response = await fetch("/api/push/key", { credentials: "same-origin" });
      if (!response.ok || !("PushManager" in window)) {
        if (!cancelled) setStatus("unavailable");
        return;
      }
      const { publicKey: key } = (await response.json()) as { publicKey: string };
      if (cancelled) return;
      setPublicKey(key);
      const current = await refresh();
      if (cancelled) return;
      setStatus("ready");
      // A login may have been rotated since this device subscribed: sending it again keeps it with the live login.
      const listed = (await listDevices()).find((device) => device.endpoint === current?.endpoint);
      if (current && listed) await register(current, listed.hideText);
    })().catch((error: unknown) => {
      if (!cancelled) setStatus("unavailable");
      console.warn("Parley push settings are unavailable", error);
    });
    return () => {
      cancelled = true;
    };
  }, [refresh]);

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
      await refresh();
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };

  if (status !== "ready" || publicKey === null) return null;
  const listedMine = devices.find((device) => device.endpoint === mine?.endpoint);
  const hideText = listedMine?.hideText ?? false;

  /** Asks for the permission before anything is awaited: browsers show permission prompts only within the tap. */
  const turnOnWork = async () => {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") throw new Blocked("notifications are blocked");
    const registration = await navigator.serviceWorker.ready;
    await register(await subscriptionFor(registration.pushManager, publicKey), hideText);
  };
  const turnOn = () => act(turnOnWork);
  /** The phone path in one tap: the browser's install dialog, where it offers one, and the notification permission, both within the tap. */
  const installAndTurnOn = () => {
    const installing = promptInstall();
    void act(async () => {
      await turnOnWork();
      await installing;
    });
  };
  const dismissOffer = () => {
    rememberDismissed();
    setOffered(false);
  };
  const turnOff = () =>
    act(async () => {
      if (!mine) return;
      await forget(mine.endpoint);
      await mine.unsubscribe();
    });

  const showOffer = offered && !listedMine;
  const problemText = problem === null ? null : "text" in problem ? problem.text : t(problem.key, problem.key === "hostAnswered" ? { status: problem.status } : undefined);
  return (
    <>
      {showOffer && createPortal(<PhoneOffer busy={busy} problem={problemText} onAccept={installAndTurnOn} onDismiss={dismissOffer} />, document.getElementById(OFFER_SLOT_ID) ?? document.body)}
      <details className="parley-device">
        <summary>{t("settingsToggle")}</summary>
        <section aria-label={t("settingsLabel")} className="parley-device__panel">
          {listedMine ? (
            <Button disabled={busy} onClick={() => void turnOff()}>
              {t("turnOff")}
            </Button>
          ) : (
            <Button disabled={busy} onClick={() => void turnOn()}>
              {t("turnOn")}
            </Button>
          )}
          {listedMine && mine && (
            <label htmlFor={hideId} className="parley-device__option">
              <input id={hideId} type="checkbox" checked={hideText} disabled={busy} onChange={(event) => void act(() => register(mine, event.target.checked))} />
              {t("hideText")}
            </label>
          )}
          {problemText && !showOffer && <p role="alert">{problemText}</p>}
          <h2 className="parley-device__heading">{t("devicesHeading")}</h2>
          {devices.length === 0 ? (
            <p>{t("noDevices")}</p>
          ) : (
            <ul className="parley-device__list">
              {devices.map((device) => (
                <li key={device.endpoint}>
                  <bdi>{device.endpoint === mine?.endpoint ? t("thisDevice") : (device.label ?? t("aDevice"))}</bdi>
                  <Button variant="ghost" disabled={busy} onClick={() => void act(() => (device.endpoint === mine?.endpoint && mine ? mine.unsubscribe().then(() => forget(device.endpoint)) : forget(device.endpoint)))}>
                    {t("remove")}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </details>
    </>
  );
}
