import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { captureInstallPrompt } from "./install-prompt";
import "./push.css";

/**
 * Registers Parley's service worker, offers "Reload to update" when a new version waits (never swapping the page
 * under a half-typed answer), follows a notification to its chat, and mounts this device's push settings lazily.
 */
const UPDATE_ID = "parley-update";

function offerReload(waiting: ServiceWorker) {
  if (document.getElementById(UPDATE_ID)) return;
  const bar = document.createElement("div");
  bar.id = UPDATE_ID;
  bar.setAttribute("role", "status");
  bar.className = "parley-update";
  const text = document.createElement("span");
  text.textContent = "A new version of Parley is ready.";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Reload to update";
  button.addEventListener("click", () => {
    button.disabled = true;
    navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload(), { once: true });
    waiting.postMessage({ type: "skip-waiting" });
  });
  bar.append(text, button);
  document.body.append(bar);
}

function watchForUpdates(registration: ServiceWorkerRegistration) {
  const hadController = navigator.serviceWorker.controller !== null;
  if (registration.waiting && hadController) offerReload(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && navigator.serviceWorker.controller !== null) offerReload(installing);
    });
  });
}

/** A notification tapped while Parley is open: show that chat by its hash, which keeps whatever is typed in place. */
function followNotifications() {
  navigator.serviceWorker.addEventListener("message", (event: MessageEvent) => {
    const data = event.data as { type?: unknown; sessionId?: unknown } | null;
    if (data?.type !== "parley/open-request" || typeof data.sessionId !== "string") return;
    window.location.hash = `#session=${encodeURIComponent(data.sessionId)}`;
  });
}

async function mountDeviceSettings() {
  const container = document.getElementById("parley-device");
  if (!container) return;
  const { DeviceSettings } = await import("./device-settings");
  createRoot(container).render(createElement(DeviceSettings));
}

export async function installParley(): Promise<void> {
  if (window.location.pathname === "/demo" || window.location.pathname.startsWith("/demo/")) return;
  if (!("serviceWorker" in navigator) || !import.meta.env.PROD) return;
  captureInstallPrompt();
  followNotifications();
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  watchForUpdates(registration);
  await mountDeviceSettings();
}

installParley().catch((error: unknown) => console.warn("Parley could not install its service worker", error));
