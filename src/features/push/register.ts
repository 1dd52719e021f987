import { createElement } from "react";
import { createRoot } from "react-dom/client";

// The service worker's registration, its updates and this device's push settings: loaded by install.ts once the app starts.

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

async function mountDeviceSettings() {
  const container = document.getElementById("parley-device");
  if (!container) return;
  const { DeviceSettings } = await import("./device-settings");
  createRoot(container).render(createElement(DeviceSettings));
}

/** Registers the service worker, watches for a new version and mounts this device's push settings. */
export async function registerParley(): Promise<void> {
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  watchForUpdates(registration);
  await mountDeviceSettings();
}
