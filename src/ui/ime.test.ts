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
  it.each([
    ["lets a plain Enter through", "no composition", { isComposing: false, keyCode: 13 }, false],
    ["blocks a key the browser marks as composing", "no composition", { isComposing: true, keyCode: 13 }, true],
    ["lets key code 229 through outside any composition, as Gboard sends it for most keys", "no composition", { isComposing: false, keyCode: 229 }, false],
    ["blocks key code 229 while a composition is open", "composing", { isComposing: false, keyCode: 229 }, true],
    ["blocks keys between compositionstart and compositionend", "composing", { isComposing: false, keyCode: 13 }, true],
  ] as const)("%s", (_behaviour, composition, key, blocked) => {
    const guard = createImeGuard(manualTicks().schedule);
    if (composition === "composing") guard.onCompositionStart();
    expect(guard.isImeKey(key)).toBe(blocked);
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

describe("createImeGuard's isImeEscape", () => {
  it("blocks an Escape with key code 229, as Safari sends the one that closes the candidates after compositionend, and a plain Escape only as isImeKey does", () => {
    const ticks = manualTicks();
    const guard = createImeGuard(ticks.schedule);
    expect([guard.isImeEscape({ isComposing: false, keyCode: 229 }), guard.isImeEscape({ isComposing: false, keyCode: 27 })]).toEqual([true, false]);
    guard.onCompositionStart();
    guard.onCompositionEnd();
    expect(guard.isImeEscape({ isComposing: false, keyCode: 27 })).toBe(true);
    ticks.flush();
    expect(guard.isImeEscape({ isComposing: false, keyCode: 27 })).toBe(false);
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
