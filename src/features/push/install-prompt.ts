/** Chromium's `beforeinstallprompt` event: the browser's install dialog, held until the human asks for it. */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let held: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

/**
 * Holds the browser's install offer from the first moment of the page (the device settings load later), so Parley offers
 * install together with notifications in one tap instead of the browser's own bar.
 */
export function captureInstallPrompt(target: Window = window): void {
  target.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    held = event as InstallPromptEvent;
    changed();
  });
  target.addEventListener("appinstalled", () => {
    held = null;
    changed();
  });
}

/** Whether the browser offers to install Parley now. */
export const installable = (): boolean => held !== null;

export function onInstallableChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows the browser's install dialog (it needs the human's tap, so call it in the click); resolves with whether Parley was installed. */
export async function promptInstall(): Promise<boolean> {
  const offer = held;
  if (offer === null) return false;
  held = null;
  changed();
  await offer.prompt();
  return (await offer.userChoice).outcome === "accepted";
}
