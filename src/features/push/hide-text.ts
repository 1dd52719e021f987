/** Where this browser remembers that its push subscription hides the question: the tab's own notifications then hide it too. */
export const HIDE_TEXT_KEY = "parley.push.hide-text";

/** Whether this device's notifications hide the question; a storage that cannot be read hides it, erring on the private side. */
export function hidesText(): boolean {
  try {
    return localStorage.getItem(HIDE_TEXT_KEY) === "1";
  } catch {
    return true;
  }
}
