import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fireEvent } from "@testing-library/react";
import { isTypingElsewhere, resetTypingActivity, TYPING_WINDOW_MS } from "./typing-activity";

function field(html: string): HTMLElement {
  document.body.innerHTML = html;
  return document.body.querySelector("textarea, input")!;
}

describe("isTypingElsewhere", () => {
  beforeEach(() => resetTypingActivity());
  afterEach(() => {
    document.body.innerHTML = "";
    resetTypingActivity();
  });

  it("counts a focused text field that holds text, and not an empty one", () => {
    const box = field("<textarea></textarea>");
    box.focus();
    expect(isTypingElsewhere()).toBe(false);
    (box as HTMLTextAreaElement).value = "half";
    expect(isTypingElsewhere()).toBe(true);
  });

  it("counts a message box in view marked as holding a draft even without the focus, and not one that is hidden or unmarked", () => {
    const box = field("<div><p><textarea></textarea></p></div><button>elsewhere</button>") as HTMLTextAreaElement;
    document.querySelector("button")!.focus();
    expect(isTypingElsewhere()).toBe(false);
    box.value = "a draft";
    box.setAttribute("data-draft", "");
    expect(isTypingElsewhere()).toBe(true);
    box.closest("div")!.hidden = true;
    expect(isTypingElsewhere()).toBe(false);
    // Told, the page is not read: a takeover's first render after a chat switch.
    expect(isTypingElsewhere(true)).toBe(true);
    box.closest("div")!.hidden = false;
    expect(isTypingElsewhere(false)).toBe(false);
  });

  it("does not count an unmarked field's text once focus has left it", () => {
    const box = field('<textarea></textarea><button>elsewhere</button>') as HTMLTextAreaElement;
    box.value = "notes";
    document.querySelector("button")!.focus();
    expect(isTypingElsewhere()).toBe(false);
  });

  it("counts a keystroke in a text field for the typing window, and not the Enter that sends", () => {
    const box = field("<textarea></textarea>");
    box.focus();
    fireEvent.keyDown(box, { key: "a" });
    const pressed = performance.now();
    expect(isTypingElsewhere(null, pressed)).toBe(true);
    expect(isTypingElsewhere(null, pressed + TYPING_WINDOW_MS + 1)).toBe(false);
    fireEvent.keyDown(box, { key: "Enter" });
    expect(isTypingElsewhere()).toBe(false);
  });

  it("does not count a keystroke inside a question panel", () => {
    const box = field('<section data-question-panel=""><input type="text" /></section>');
    box.focus();
    fireEvent.keyDown(box, { key: "a" });
    expect(isTypingElsewhere()).toBe(false);
  });
});
