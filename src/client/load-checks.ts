import type * as checks from "./checks";

/** The client's checks of what the host sends (checks.ts), in their own chunk. */
export type Checks = typeof checks;

let loading: Promise<Checks> | undefined;
let loaded: Checks | undefined;

/** Loads the checks once; the app starts this as it starts, so they are in by the time the host's first answer is. */
export function loadChecks(): Promise<Checks> {
  loading ??= import("./checks").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined; // a chunk that failed to load is asked for again by the next caller
      throw error;
    },
  );
  return loading;
}

/** The checks when they are loaded, else undefined (the socket then holds its frames until they are). */
export function loadedChecks(): Checks | undefined {
  return loaded;
}
