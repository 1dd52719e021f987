import type * as checks from "./checks";
import { loadOnce } from "./load-once";

/** The client's checks of what the host sends (checks.ts), in their own chunk. */
export type Checks = typeof checks;

const chunk = loadOnce(() => import("./checks"));

/** Loads the checks once; the app starts this as it starts, so they are in by the time the host's first answer is. */
export const loadChecks = chunk.load;

/** The checks when they are loaded, else undefined (the socket then holds its frames until they are). */
export const loadedChecks = chunk.loaded;
