/** Base delay of the reconnect backoff, in milliseconds. */
export const BACKOFF_BASE_MS = 500;
/** Upper bound of the reconnect backoff, in milliseconds. */
export const BACKOFF_CAP_MS = 10_000;

/**
 * Exponential backoff with full jitter: a uniform delay in [0, min(cap, base · 2^attempt)).
 * `attempt` counts failed connection attempts since the last success, from 0.
 */
export function backoffDelay(attempt: number, random: () => number, baseMs = BACKOFF_BASE_MS, capMs = BACKOFF_CAP_MS): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}
