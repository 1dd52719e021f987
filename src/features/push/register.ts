import { detectLocale } from "../../i18n/locale";
import { pushCopy } from "./copy";
import { markPushSettingsReady } from "./settings-ready";

// The service worker's registration and its updates: loaded by install.ts once the app starts.

const UPDATE_ID = "parley-update";

function offerReload(waiting: ServiceWorker) {
  if (document.getElementById(UPDATE_ID)) return;
  // The bar speaks the page's language, which the app keeps on `<html lang>`; English for one Parley has no copy for.
  const copy = pushCopy[detectLocale([], document.documentElement.lang)];
  const bar = document.createElement("div");
  bar.id = UPDATE_ID;
  bar.setAttribute("role", "status");
  bar.className = "parley-update";
  const text = document.createElement("span");
  text.textContent = copy.updateReady;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = copy.updateReload;
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

/** Registers the service worker, watches for a new version and lets the sidebar load this device's push settings. */
export async function registerParley(): Promise<void> {
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  watchForUpdates(registration);
  markPushSettingsReady();
}
