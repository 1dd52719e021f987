import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { detectLocale, format, readRememberedLocale, rememberLocale, type Catalog, type Locale } from "./locale";

interface LocaleContextValue {
  locale: Locale;
  setLocale: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleContextValue>({ locale: "en", setLocale: () => undefined });

/**
 * Provides the UI language; `initial` overrides detection (tests, the demo page). Unless `setsDocumentLanguage`
 * is false, `<html lang>` follows it, so screen readers read the interface with the right voice.
 */
export function LocaleProvider({ initial, setsDocumentLanguage = true, children }: { initial?: Locale; setsDocumentLanguage?: boolean; children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(
    () => initial ?? detectLocale(typeof navigator === "undefined" ? [] : navigator.languages, readRememberedLocale()),
  );
  const setLocale = useCallback((next: Locale) => {
    rememberLocale(next);
    setLocaleState(next);
  }, []);
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  useEffect(() => {
    if (setsDocumentLanguage) document.documentElement.lang = locale;
  }, [locale, setsDocumentLanguage]);
  return <LocaleContext value={value}>{children}</LocaleContext>;
}

export function useLocale(): LocaleContextValue {
  return useContext(LocaleContext);
}

/** Returns `t(key, values)` over a feature's catalogue in the current locale. */
export function useCopy<Keys extends string>(catalog: Catalog<Keys>) {
  const { locale } = useContext(LocaleContext);
  return useCallback(
    (key: Keys, values?: Record<string, string | number>) => format(catalog[locale][key], values),
    [catalog, locale],
  );
}
