import { describe, expect, it } from "vitest";
import { createImeGuard } from "./ime";

function manualTicks() {
  const pending: (() => void)[] = [];
  return {
    schedule: (callback: () => void) => {
      pending.push(callback);
    },
    flush: () => pending.splice(0).forEach((callback) => callback()),
  };
}

describe("createImeGuard", () => {
  it("lets a plain Enter through", () => {
    const guard = createImeGuard(manualTicks().schedule);
    expect(guard.isImeKey({ isComposing: false, keyCode: 13 })).toBe(false);
  });

  it("blocks a key the browser marks as composing", () => {
    const guard = createImeGuard(manualTicks().schedule);
    expect(guard.isImeKey({ isComposing: true, keyCode: 13 })).toBe(true);
  });

  it("blocks the IME process key code 229", () => {
    const guard = createImeGuard(manualTicks().schedule);
    expect(guard.isImeKey({ isComposing: false, keyCode: 229 })).toBe(true);
  });

  it("blocks keys between compositionstart and compositionend", () => {
    const ticks = manualTicks();
    const guard = createImeGuard(ticks.schedule);
    guard.onCompositionStart();
    expect(guard.isImeKey({ isComposing: false, keyCode: 13 })).toBe(true);
  });

  it("blocks an Enter in the same tick as compositionend and allows the next tick's", () => {
    const ticks = manualTicks();
    const guard = createImeGuard(ticks.schedule);
    guard.onCompositionStart();
    guard.onCompositionEnd();
    expect(guard.isImeKey({ isComposing: false, keyCode: 13 })).toBe(true);
    ticks.flush();
    expect(guard.isImeKey({ isComposing: false, keyCode: 13 })).toBe(false);
  });
});
