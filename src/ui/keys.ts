/** Keys that only change another key: pressing one alone is not a key pressed "in between" for the Enter guards. */
export const MODIFIER_KEYS: ReadonlySet<string> = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);
