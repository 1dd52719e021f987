/** The UI languages Parley ships. */
export const LOCALES = ["en", "zh-CN"] as const;
export type Locale = (typeof LOCALES)[number];

/** A feature's copy: the same keys in every locale. Values may hold `{name}` placeholders. */
export type Catalog<Keys extends string = string> = Record<Locale, Record<Keys, string>>;

/**
 * A catalogue the first screen imports: English is here, and the other locales' texts are filled in by their own chunk
 * (`./zh-CN.ts`), which `LocaleProvider` loads before it shows them, so the first screen's script carries one language.
 */
export function englishFirst<Keys extends string>(en: Record<Keys, string>): Catalog<Keys> {
  // Empty until filled: `useCopy` shows English for a text a locale lacks.
  return { en, "zh-CN": {} as Record<Keys, string> };
}

const filled = new Set<Locale>(["en"]);

/** Fills an `englishFirst` catalogue's texts in one locale; that locale's chunk calls it for each, then `markLocaleFilled`. */
export function fillCatalog<Keys extends string>(catalog: Catalog<Keys>, locale: Locale, texts: Record<Keys, string>): void {
  Object.assign(catalog[locale], texts);
}

export function markLocaleFilled(locale: Locale): void {
  filled.add(locale);
}

/** Whether every catalogue has its texts in this locale. */
export function isLocaleFilled(locale: Locale): boolean {
  return filled.has(locale);
}

const STORAGE_KEY = "parley.locale";

/** Picks the UI language: a remembered choice, else the browser's languages, else English. */
export function detectLocale(languages: readonly string[], remembered: string | null): Locale {
  if (remembered && (LOCALES as readonly string[]).includes(remembered)) return remembered as Locale;
  for (const language of languages) {
    const lower = language.toLowerCase();
    if (lower.startsWith("zh")) return "zh-CN";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

export function readRememberedLocale(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function rememberLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch (error) {
    console.warn("could not remember the locale", error);
  }
}

/** Fills `{name}` placeholders; a missing value leaves the placeholder visible. */
export function format(template: string, values?: Record<string, string | number>): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
