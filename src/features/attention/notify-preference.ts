import { useCallback, useSyncExternalStore } from "react";

const STORAGE_KEY = "parley.notify";
const listeners = new Set<() => void>();

/** Whether the user opted in to desktop notifications (shared by every tab through localStorage). */
export function readNotifyOptIn(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false;
  }
}

export function writeNotifyOptIn(on: boolean): void {
  try {
    if (on) localStorage.setItem(STORAGE_KEY, "on");
    else localStorage.removeItem(STORAGE_KEY);
  } catch (error) {
    console.warn("could not remember the notification choice", error);
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY || event.key === null) listener();
  };
  listeners.add(listener);
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The opt-in and its setter; changes in other tabs show up here too. */
export function useNotifyOptIn(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribe, readNotifyOptIn, () => false);
  return [on, useCallback((next: boolean) => writeNotifyOptIn(next), [])];
}

/** Notifications can be shown: the API exists and the user granted permission. */
export function canNotify(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}
