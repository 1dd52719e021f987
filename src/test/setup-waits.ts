import { vi } from "vitest";

// A loaded machine takes seconds where a quiet one takes milliseconds; every wait is for a state, so its default
// bound is 10 s (vi.waitFor's own is 1 s). A wait that names its timeout keeps it.
const WAIT_MS = 10_000;
const waitFor = vi.waitFor.bind(vi);
vi.waitFor = ((callback, options) => waitFor(callback, typeof options === "number" ? { timeout: options } : { timeout: WAIT_MS, ...options })) as typeof vi.waitFor;
