import { LOCALES, type Locale } from "../i18n/locale";
import { isThemeChoice, type ThemeChoice } from "../ui/theme";
import type { PreviewWidth } from "./demo-controls";
import { REPLIES, type DemoReply } from "./stories";

/** Side by side: one preview, the story at phone and desktop width, or in the light and dark theme. */
export const COMPARES = ["off", "widths", "themes"] as const;
export type Compare = (typeof COMPARES)[number];
const WIDTHS = ["phone", "tablet", "desktop"] as const satisfies readonly PreviewWidth[];

/** The workshop's view of the story that the address keeps: the preview's width, side by side, and the host's reply. */
export interface ViewSettings {
  width: PreviewWidth;
  compare: Compare;
  /** null: the story's own. */
  reply: DemoReply | null;
}

export const DEFAULT_VIEW: ViewSettings = { width: "desktop", compare: "off", reply: null };

const oneOf = <T extends string>(choices: readonly T[], value: string | null): T | undefined => choices.find((choice) => choice === value);

/** The view an address names; a missing or unknown value is the default's. */
export function readView(params: URLSearchParams): ViewSettings {
  return {
    width: oneOf(WIDTHS, params.get("width")) ?? DEFAULT_VIEW.width,
    compare: oneOf(COMPARES, params.get("compare")) ?? DEFAULT_VIEW.compare,
    reply: oneOf(REPLIES, params.get("reply")) ?? DEFAULT_VIEW.reply,
  };
}

/** Writes the view into an address, naming only what differs from the default. */
export function writeView(url: URL, view: ViewSettings): void {
  const keys = ["width", "compare", "reply"] as const;
  // Taken out and put back in one order, so the same view always reads the same.
  for (const key of keys) url.searchParams.delete(key);
  for (const key of keys) {
    const value = view[key];
    if (value !== DEFAULT_VIEW[key] && value !== null) url.searchParams.set(key, value);
  }
}

/** The theme and language a shared link names, each absent when the link names none it knows. */
export function readLook(params: URLSearchParams): { theme?: ThemeChoice; locale?: Locale } {
  const theme = params.get("theme");
  const locale = oneOf(LOCALES, params.get("lang"));
  return { ...(isThemeChoice(theme) ? { theme } : {}), ...(locale ? { locale } : {}) };
}

/** Takes the theme and language out of an address once they are applied: the workshop remembers them itself. */
export function withoutLook(url: URL): URL {
  url.searchParams.delete("theme");
  url.searchParams.delete("lang");
  return url;
}

/** The link Copy link gives: the address as it is (story, edit, view), with the theme and language it is seen in. */
export function sharedLink(href: string, theme: ThemeChoice, locale: Locale): string {
  const url = new URL(href);
  url.searchParams.set("theme", theme);
  url.searchParams.set("lang", locale);
  return url.href;
}
