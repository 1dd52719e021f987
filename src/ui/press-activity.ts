import { documentWatcher } from "./document-watcher";

let pressed = false;

function press(): void {
  pressed = true;
}

function release(): void {
  pressed = false;
}

/** Starts watching pointer presses; the module does this when it loads, and it is safe to call again. */
export const watchPresses = documentWatcher([
  ["pointerdown", press],
  ["pointerup", release],
  ["pointercancel", release],
]);

/**
 * Runs `run` now, or, while a pointer is pressed, once the press is over and its click has landed:
 * a layout change made mid-press would move the target from under the pointer and lose the click.
 */
export function afterPress(run: () => void): void {
  if (!pressed) {
    run();
    return;
  }
  const done = new AbortController();
  const finish = () => {
    done.abort();
    setTimeout(run, 0);
  };
  window.addEventListener("pointerup", finish, { capture: true, signal: done.signal });
  window.addEventListener("pointercancel", finish, { capture: true, signal: done.signal });
}

watchPresses();
