const COUNT_PREFIX = /^\(\d+\) /;

/** The title with a `(N) ` prefix for N unseen questions, or without any prefix for none. */
export function titleWithCount(title: string, count: number): string {
  const base = title.replace(COUNT_PREFIX, "");
  return count > 0 ? `(${count}) ${base}` : base;
}
