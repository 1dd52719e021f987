import { openSessionHash, sessionFromHash } from "../../ui/hash-session";
import { captureInstallPrompt } from "./install-prompt";
import "./push.css";

/**
 * Registers Parley's service worker, offers "Reload to update" when a new version waits (never swapping the page
 * under a half-typed answer), follows a notification to its chat, and mounts this device's push settings lazily.
 * What must listen from the first moment (the install prompt, a notification tapped) is here; the rest
 * (`register.ts`) loads in a chunk of its own.
 */
/** A notification tapped while Parley is open: show that chat by its hash, which keeps whatever is typed in place. */
function followNotifications() {
  navigator.serviceWorker.addEventListener("message", (event: MessageEvent) => {
    const data = event.data as { type?: unknown; sessionId?: unknown } | null;
    if (data?.type !== "parley/open-request" || typeof data.sessionId !== "string") return;
    openSessionHash(data.sessionId);
  });
}

/**
 * Tells the worker which chat this window shows, at start, at every move and whenever the window comes back to the user
 * (the worker sees a window's address only as it was opened, and forgets what it was told when it stops): a request for
 * the chat on screen then needs no notification (docs/protocol.md, push-payload).
 */
function tellShownChat() {
  const tell = () => navigator.serviceWorker.controller?.postMessage({ type: "parley/showing", sessionId: sessionFromHash(window.location.hash) });
  window.addEventListener("hashchange", tell);
  window.addEventListener("focus", tell);
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && tell());
  navigator.serviceWorker.addEventListener("controllerchange", tell);
  tell();
}

export async function installParley(): Promise<void> {
  if (window.location.pathname === "/demo" || window.location.pathname.startsWith("/demo/")) return;
  if (!("serviceWorker" in navigator) || !import.meta.env.PROD) return;
  captureInstallPrompt();
  followNotifications();
  tellShownChat();
  const { registerParley } = await import("./register");
  await registerParley();
}

installParley().catch((error: unknown) => console.warn("Parley could not install its service worker", error));
