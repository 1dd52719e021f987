import type { Page } from "@playwright/test";
import { mulberry32 } from "../src/testing/seeded-random";

/** A frame at Chromium's 60 Hz, in ms. */
const FRAME_MS = 1000 / 60;
/**
 * Waits a seeded part of a frame, as each click and key of the browser's batches does, with the same seed in both pages
 * of a round. Input sent as soon as the last was seen, or on a fixed beat, lands at the same point of a frame each time,
 * and which point that is changes from one launch of the browser to the next; a person's lands anywhere in a frame.
 */
export function intoAFrame(offsets: () => number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, offsets() * FRAME_MS));
}

/** Types `text` a key at a time, each held 25 ms and sent a seeded part of a frame after the last (intoAFrame). */
export async function typeIntoFrames(target: Page, text: string, seed: number) {
  const offsets = mulberry32(seed);
  for (const key of text) {
    await intoAFrame(offsets);
    await target.keyboard.type(key, { delay: 25 });
  }
}
