/** Whether Parley's service worker is registered, so this device's push settings can load (set by `register.ts`). */
let ready = false;
const listeners = new Set<() => void>();

export const pushSettingsReady = (): boolean => ready;

export function onPushSettingsReady(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function markPushSettingsReady(): void {
  ready = true;
  for (const listener of listeners) listener();
}

/** The element in the app's main column the one-tap phone offer shows in, above the chat (so it covers nothing). */
export const OFFER_SLOT_ID = "parley-offer";
