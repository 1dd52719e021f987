import { useCallback, useSyncExternalStore } from "react";

/** The user's theme choice; `system` follows `prefers-color-scheme`. */
export const THEME_CHOICES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

const STORAGE_KEY = "parley.theme";

const listeners = new Set<() => void>();
let current: ThemeChoice | null = null;

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === "string" && (THEME_CHOICES as readonly string[]).includes(value);
}

export function readRememberedTheme(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return isThemeChoice(stored) ? stored : "system";
  } catch {
    return "system";
  }
}

/** Sets `data-theme` on the root element for light or dark, removes it for system. */
export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
}

/** The choice in force in this document. */
export function getTheme(): ThemeChoice {
  if (current === null) current = readRememberedTheme();
  return current;
}

/** Applies, remembers and announces a choice. */
export function setTheme(choice: ThemeChoice): void {
  current = choice;
  applyTheme(choice);
  try {
    localStorage.setItem(STORAGE_KEY, choice);
  } catch (error) {
    console.warn("could not remember the theme", error);
  }
  listeners.forEach((listener) => listener());
}

/** Applies the remembered choice and follows changes made in other tabs. Returns a stop function. */
export function startTheme(): () => void {
  applyTheme(getTheme());
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY) return;
    current = isThemeChoice(event.newValue) ? event.newValue : "system";
    applyTheme(current);
    listeners.forEach((listener) => listener());
  };
  window.addEventListener("storage", onStorage);
  return () => window.removeEventListener("storage", onStorage);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current theme choice and a setter that applies and remembers it. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const choice = useSyncExternalStore(subscribe, getTheme, () => "system" as const);
  const set = useCallback((next: ThemeChoice) => setTheme(next), []);
  return [choice, set];
}
