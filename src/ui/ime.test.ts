import { describe, expect, it } from "vitest";
import { createImeGuard, isLineBreakInput } from "./ime";

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

  it("lets key code 229 through outside any composition, as Gboard sends it for most keys", () => {
    const guard = createImeGuard(manualTicks().schedule);
    expect(guard.isImeKey({ isComposing: false, keyCode: 229 })).toBe(false);
  });

  it("blocks key code 229 while a composition is open", () => {
    const guard = createImeGuard(manualTicks().schedule);
    guard.onCompositionStart();
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

describe("isLineBreakInput", () => {
  it("takes insertLineBreak and insertParagraph outside composition as Enter", () => {
    expect(isLineBreakInput({ inputType: "insertLineBreak", isComposing: false })).toBe(true);
    expect(isLineBreakInput({ inputType: "insertParagraph" })).toBe(true);
  });

  it("ignores a line break inside a composition and every other input", () => {
    expect(isLineBreakInput({ inputType: "insertLineBreak", isComposing: true })).toBe(false);
    expect(isLineBreakInput({ inputType: "insertText", isComposing: false })).toBe(false);
    expect(isLineBreakInput({ inputType: "insertCompositionText", isComposing: true })).toBe(false);
  });
});
