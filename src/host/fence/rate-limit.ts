/** One token bucket per key: `burst` requests at once, refilled at `perSecond`. */
export interface BucketLimits {
  burst: number;
  perSecond: number;
}

/** The routes a client can flood; `false` turns every limit off. */
export interface RateLimits {
  respond: BucketLimits;
  messages: BucketLimits;
  /** `POST /api/sessions`. */
  sessions: BucketLimits;
  /** Requests that offered a token or login that was wrong; a right one is never braked. */
  authFailures: BucketLimits;
}

/** Sane for a human with a few tabs, generous for e2e runs from one loopback address. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  respond: { burst: 120, perSecond: 40 },
  messages: { burst: 30, perSecond: 5 },
  sessions: { burst: 60, perSecond: 2 },
  authFailures: { burst: 20, perSecond: 1 },
};

export type Verdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Takes one token for `key`, or says how many whole seconds until one is available. */
  take(key: string): Verdict;
  readonly size: number;
}

const SWEEP_AT_KEYS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export function createRateLimiter(limits: BucketLimits, now: () => number = () => performance.now()): RateLimiter {
  if (!(limits.burst >= 1) || !(limits.perSecond > 0)) throw new RangeError("a bucket needs burst >= 1 and perSecond > 0");
  const buckets = new Map<string, Bucket>();
  const refill = (bucket: Bucket, at: number) => Math.min(limits.burst, bucket.tokens + ((at - bucket.at) / 1000) * limits.perSecond);

  function sweep(at: number) {
    for (const [key, bucket] of buckets) if (refill(bucket, at) >= limits.burst) buckets.delete(key);
  }

  const wait = (tokens: number): Verdict => ({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / limits.perSecond)) });

  return {
    take(key) {
      const at = now();
      if (buckets.size >= SWEEP_AT_KEYS) sweep(at);
      const bucket = buckets.get(key) ?? { tokens: limits.burst, at };
      bucket.tokens = refill(bucket, at);
      bucket.at = at;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return wait(bucket.tokens);
    },
    get size() {
      return buckets.size;
    },
  };
}

export type RateLimitedRoute = keyof RateLimits;

/** Takes a token of a route's bucket for a client. */
export type RouteLimiter = (route: RateLimitedRoute, key: string) => Verdict;

/** Per-route buckets keyed by client, the defaults filling routes `limits` leaves out; with `false`, every request passes. */
export function createRouteLimiter(limits: Partial<RateLimits> | false, now?: () => number): RouteLimiter {
  if (limits === false) return () => ({ ok: true });
  const merged: RateLimits = { ...DEFAULT_RATE_LIMITS, ...limits };
  const limiters = new Map((Object.keys(merged) as RateLimitedRoute[]).map((route) => [route, createRateLimiter(merged[route], now)]));
  return (route, key) => limiters.get(route)!.take(key);
}
