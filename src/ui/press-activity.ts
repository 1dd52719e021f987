import { documentWatcher } from "./document-watcher";

let pressed = false;
/** What waits for the press to be over, run once it is. */
const waiting = new Set<() => void>();

function press(event: Event): void {
  // Only the primary button clicks; a right press opens a menu instead.
  if ((event as PointerEvent).button === 0) pressed = true;
}

function release(): void {
  if (!pressed) return;
  pressed = false;
  const runs = [...waiting];
  waiting.clear();
  // After the click the release brings has landed.
  for (const run of runs) setTimeout(run, 0);
}

/** A pointer seen moving with no button held was released where the page could not hear it (a native menu, another app). */
function moveWithoutButtons(event: Event): void {
  if (pressed && (event as PointerEvent).buttons === 0) release();
}

const watchDocument = documentWatcher([
  ["pointerdown", press],
  ["pointerup", release],
  ["pointercancel", release],
  // A Control-click on a Mac opens the menu with no pointerup to follow.
  ["contextmenu", release],
  ["pointermove", moveWithoutButtons],
]);
let watchingWindow = false;

/** Starts watching pointer presses; the module does this when it loads, and it is safe to call again. */
export function watchPresses(): void {
  watchDocument();
  if (watchingWindow || typeof window === "undefined") return;
  watchingWindow = true;
  // Focus gone to another window: whatever press was under way will not end here.
  window.addEventListener("blur", release);
}

/**
 * Runs `run` now, or, while a pointer is pressed, once the press is over and its click has landed:
 * a layout change made mid-press would move the target from under the pointer and lose the click.
 */
export function afterPress(run: () => void): void {
  if (!pressed) {
    run();
    return;
  }
  waiting.add(run);
}

watchPresses();
