/** Timers that only fire when the test says so (`fireAll`), recording each requested delay in ms. */
export function manualTimers() {
  const pending = new Map<number, () => void>();
  const delays: number[] = [];
  let next = 1;
  const timers = {
    setTimeout(callback: () => void, delayMs: number): unknown {
      delays.push(delayMs);
      const handle = next++;
      pending.set(handle, callback);
      return handle;
    },
    clearTimeout(handle: unknown): void {
      pending.delete(handle as number);
    },
  };
  const fireAll = () => {
    const callbacks = [...pending.values()];
    pending.clear();
    callbacks.forEach((callback) => callback());
  };
  return { timers, delays, pending, fireAll };
}
