import { detectLocale } from "../../i18n/locale";
import { sessionFromHash } from "../../ui/hash-session";
import { pushCopy } from "./copy";
import { markPushSettingsReady } from "./settings-ready";

// The service worker's registration and its updates: loaded by install.ts once the app starts.

const UPDATE_ID = "parley-update";

/**
 * The "Reload to update" bar. Its button activates the version waiting when it is pressed (a newer one may have replaced
 * the one first offered), or reloads at once when none waits any more: another window of the app already activated it.
 */
function offerReload(registration: ServiceWorkerRegistration, reload: () => void) {
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
    const waiting = registration.waiting;
    if (waiting === null) return reload();
    button.disabled = true;
    navigator.serviceWorker.addEventListener("controllerchange", () => reload(), { once: true });
    // A newer version installed before this one took over: the button offers that one.
    waiting.addEventListener("statechange", () => {
      if (waiting.state === "redundant") button.disabled = false;
    });
    waiting.postMessage({ type: "skip-waiting" });
  });
  bar.append(text, button);
  document.body.append(bar);
}

function watchForUpdates(registration: ServiceWorkerRegistration, reload: () => void) {
  const hadController = navigator.serviceWorker.controller !== null;
  if (registration.waiting && hadController) offerReload(registration, reload);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && navigator.serviceWorker.controller !== null) offerReload(registration, reload);
    });
  });
}

/** A worker that started again (it forgot what each window told it) asks which chat this window shows: the answer goes back on the port it sent. */
function answerWhichChat() {
  navigator.serviceWorker.addEventListener("message", (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type !== "parley/which-chat") return;
    event.ports[0]?.postMessage({ sessionId: sessionFromHash(window.location.hash) });
  });
}

/**
 * Registers the service worker, watches for a new version and lets the sidebar load this device's push settings.
 * `reload` reloads the page onto the new version (the page's own reload unless a test gives another).
 */
export async function registerParley(reload: () => void = () => window.location.reload()): Promise<void> {
  answerWhichChat();
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  watchForUpdates(registration, reload);
  markPushSettingsReady();
}
