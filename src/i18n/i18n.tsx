import { createContext, use, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { detectLocale, format, isLocaleFilled, LOCALES, readRememberedLocale, rememberLocale, type Catalog, type Locale } from "./locale";

interface LocaleContextValue {
  locale: Locale;
  setLocale: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleContextValue>({ locale: "en", setLocale: () => undefined });

/** Fetches the texts that the first screen's catalogues leave out (`englishFirst`) for a locale: the app's `zh-CN.ts`. */
export type LoadTexts = (locale: Locale) => Promise<unknown>;

const loads = new Map<Locale, Promise<boolean>>();

/**
 * Loads a locale's texts once: true when they are in, false (with a warning) when they could not be fetched. A failure
 * is kept, so no render asks again in a loop; `again` asks again.
 */
function loadLocale(locale: Locale, loadTexts: LoadTexts, again = false): Promise<boolean> {
  let load = loads.get(locale);
  if (load === undefined || again) {
    load = isLocaleFilled(locale)
      ? Promise.resolve(true)
      : loadTexts(locale).then(
          () => isLocaleFilled(locale),
          (error: unknown) => {
            console.warn(`could not load the ${locale} texts`, error);
            return false;
          },
        );
    loads.set(locale, load);
  }
  return load;
}

/**
 * Provides the UI language; `initial` overrides detection (tests, the demo page). Unless `setsDocumentLanguage`
 * is false, `<html lang>` follows it, so screen readers read the interface with the right voice. A locale whose texts
 * are not in yet holds the first render (the nearest Suspense boundary) until `loadTexts` brought them, and shows
 * English if they cannot come; a switch takes effect once they are in. Once it has rendered, it loads every other
 * locale's texts, so a later switch is at once, even with the host out of reach.
 */
export function LocaleProvider({
  initial,
  loadTexts,
  setsDocumentLanguage = true,
  children,
}: {
  initial?: Locale;
  loadTexts?: LoadTexts;
  setsDocumentLanguage?: boolean;
  children: ReactNode;
}) {
  const [chosen, setChosen] = useState<Locale>(
    () => initial ?? detectLocale(typeof navigator === "undefined" ? [] : navigator.languages, readRememberedLocale()),
  );
  const locale = isLocaleFilled(chosen) || (loadTexts !== undefined && use(loadLocale(chosen, loadTexts))) ? chosen : "en";
  if (locale !== chosen) setChosen(locale);
  // The last switch asked for wins: a locale whose texts come in after a later switch is not applied.
  const asked = useRef<Locale | null>(null);
  const setLocale = useCallback((next: Locale) => {
    asked.current = next;
    const apply = () => {
      if (asked.current !== next) return;
      rememberLocale(next);
      setChosen(next);
    };
    if (isLocaleFilled(next)) apply();
    else if (loadTexts !== undefined) void loadLocale(next, loadTexts, true).then((loaded) => loaded && apply());
  }, [loadTexts]);
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  useEffect(() => {
    if (setsDocumentLanguage) document.documentElement.lang = locale;
  }, [locale, setsDocumentLanguage]);
  useEffect(() => {
    if (loadTexts !== undefined) for (const other of LOCALES) void loadLocale(other, loadTexts);
  }, [loadTexts]);
  return <LocaleContext value={value}>{children}</LocaleContext>;
}

export function useLocale(): LocaleContextValue {
  return useContext(LocaleContext);
}

/** Returns `t(key, values)` over a feature's catalogue in the current locale. */
export function useCopy<Keys extends string>(catalog: Catalog<Keys>) {
  const { locale } = useContext(LocaleContext);
  return useCallback(
    // English stands in for a text a locale lacks (an `englishFirst` catalogue not filled in), rather than nothing.
    (key: Keys, values?: Record<string, string | number>) => format(catalog[locale][key] ?? catalog.en[key], values),
    [catalog, locale],
  );
}
