import { useCallback, useEffect, useId, useState } from "react";
import { deviceLabel } from "./device-label";
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

const JSON_HEADERS = { "Content-Type": "application/json" };

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "="));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

async function listDevices(): Promise<ListedDevice[]> {
  const response = await fetch("/api/push/subscriptions", { credentials: "same-origin" });
  if (!response.ok) throw new Error(`the host answered ${response.status}`);
  return ((await response.json()) as { subscriptions: ListedDevice[] }).subscriptions;
}

async function register(subscription: PushSubscription, hideText: boolean): Promise<void> {
  const response = await fetch("/api/push/subscriptions", {
    method: "POST",
    credentials: "same-origin",
    headers: JSON_HEADERS,
    body: JSON.stringify({ ...subscription.toJSON(), label: deviceLabel(navigator.userAgent), hideText }),
  });
  if (!response.ok) throw new Error(`the host answered ${response.status}`);
}

async function forget(endpoint: string): Promise<void> {
  const response = await fetch("/api/push/subscriptions", { method: "DELETE", credentials: "same-origin", headers: JSON_HEADERS, body: JSON.stringify({ endpoint }) });
  if (!response.ok && response.status !== 404) throw new Error(`the host answered ${response.status}`);
}

/**
 * This device's push settings: turn notifications on or off, hide their text, and see and remove every device that gets
 * them. Shown only when the host offers Web Push (`GET /api/push/key`).
 */
export function DeviceSettings() {
  const [status, setStatus] = useState<Status>("loading");
  const [publicKey, setPublicKey] = useState<string | null>(null);
  const [mine, setMine] = useState<PushSubscription | null>(null);
  const [devices, setDevices] = useState<ListedDevice[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [offered, setOffered] = useState(offerWanted);
  const hideId = useId();

  const refresh = useCallback(async () => {
    const registration = await navigator.serviceWorker.ready;
    const current = await registration.pushManager.getSubscription();
    setMine(current);
    setDevices(await listDevices());
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
      setProblem(error instanceof Error ? error.message : String(error));
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
    if (permission !== "granted") throw new Error("Notifications are blocked for Parley in this browser's settings.");
    const registration = await navigator.serviceWorker.ready;
    const subscription = (await registration.pushManager.getSubscription()) ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
    await register(subscription, hideText);
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
  return (
    <>
      {showOffer && <PhoneOffer busy={busy} problem={problem} onAccept={installAndTurnOn} onDismiss={dismissOffer} />}
      <details className="parley-device">
      <summary>Notifications</summary>
      <section aria-label="Notifications on your devices" className="parley-device__panel">
        {listedMine ? (
          <button type="button" disabled={busy} onClick={() => void turnOff()}>
            Stop notifications on this device
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => void turnOn()}>
            Notify me on this device
          </button>
        )}
        {listedMine && mine && (
          <label htmlFor={hideId} className="parley-device__option">
            <input id={hideId} type="checkbox" checked={hideText} disabled={busy} onChange={(event) => void act(() => register(mine, event.target.checked))} />
            Hide the question in notifications (“Parley has a question for you”)
          </label>
        )}
        {problem && !showOffer && <p role="alert">{problem}</p>}
        <h2 className="parley-device__heading">Devices that get notifications</h2>
        {devices.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <ul className="parley-device__list">
            {devices.map((device) => (
              <li key={device.endpoint}>
                <span>{device.endpoint === mine?.endpoint ? "This device" : (device.label ?? "A device")}</span>
                <button type="button" disabled={busy} onClick={() => void act(() => (device.endpoint === mine?.endpoint && mine ? mine.unsubscribe().then(() => forget(device.endpoint)) : forget(device.endpoint)))}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </details>
    </>
  );
}
