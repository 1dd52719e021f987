import { memo, useSyncExternalStore } from "react";
import { useLocale } from "../i18n/i18n";
import { VisuallyHidden } from "./visually-hidden";

/** How often relative times are brought up to date, in milliseconds. */
const TICK_MS = 30_000;

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) now = Date.now();
  timer ??= setInterval(() => {
    now = Date.now();
    for (const notify of listeners) notify();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** While nothing is subscribed the clock is read fresh (to the second, so repeated reads agree); then it ticks. */
const readNow = () => {
  if (timer === null) now = Math.floor(Date.now() / 1000) * 1000;
  return now;
};

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** The largest whole unit between two instants, as `Intl.RelativeTimeFormat` takes it; under a minute is `0 minute` ("now"). */
export function relativeParts(thenMs: number, nowMs: number): { value: number; unit: Intl.RelativeTimeFormatUnit } {
  const seconds = Math.round((thenMs - nowMs) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return { value: Math.trunc(seconds / size), unit };
  }
  return { value: 0, unit: "minute" };
}

/** A formatter per locale, made once: making one costs far more than formatting with it, and rows render many times a second while a reply streams. */
function perLocale<Formatter>(make: (locale: string) => Formatter): (locale: string) => Formatter {
  const made = new Map<string, Formatter>();
  return (locale) => {
    let formatter = made.get(locale);
    if (formatter === undefined) {
      formatter = make(locale);
      made.set(locale, formatter);
    }
    return formatter;
  };
}

const relativeFormat = perLocale((locale) => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }));
const narrowFormat = perLocale((locale) => new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "narrow" }));
const absoluteFormat = perLocale((locale) => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }));

/**
 * An ISO instant as "5 minutes ago" in the UI language, the full date and time on hover; nothing for a missing or bad
 * value. When `narrow`, for a short line, it shows the locale's short form ("5m ago") and a screen reader still reads the
 * full one.
 */
export const RelativeTime = memo(function RelativeTime({ iso, className, narrow = false }: { iso: string; className?: string; narrow?: boolean }) {
  const { locale } = useLocale();
  const current = useSyncExternalStore(subscribe, readNow, readNow);
  const then = Date.parse(iso);
  if (iso === "" || Number.isNaN(then)) return null;
  const { value, unit } = relativeParts(then, current);
  const relative = relativeFormat(locale).format(value, unit);
  const absolute = absoluteFormat(locale).format(then);
  return (
    <time className={className} dateTime={iso} title={absolute}>
      {narrow ? (
        <>
          {/* Under a minute, the short form says "now" rather than "this minute". */}
          <span aria-hidden="true">{narrowFormat(locale).format(value, value === 0 ? "second" : unit)}</span>
          <VisuallyHidden>{relative}</VisuallyHidden>
        </>
      ) : (
        relative
      )}
    </time>
  );
});
