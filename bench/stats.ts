/** The value at quantile `q` (0..1) of `samples`, nearest rank. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

/** Progress goes to stderr so stdout stays machine-readable. */
export function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** The lowest and highest of a metric's per-round values, printed beside it and never held to its target. */
export interface Spread {
  min: number;
  max: number;
  rounds: number;
}

/**
 * For rounds measured in turn (an app batch, then its baseline batch): each round's ratio of the app's quantile `q` to the
 * baseline's, the median of those ratios and their spread, so one noisy round moves the spread, not the median.
 */
export function roundRatios(app: readonly (readonly number[])[], baseline: readonly (readonly number[])[], q: number): { median: number; spread: Spread } {
  const ratios = app.map((samples, round) => quantile(samples, q) / quantile(baseline[round] ?? [], q));
  const fixed = (value: number) => Number(value.toFixed(3));
  return { median: fixed(median(ratios)), spread: { min: fixed(Math.min(...ratios)), max: fixed(Math.max(...ratios)), rounds: ratios.length } };
}
