import { renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createStepGuard,
  focusStep,
  isAnswerShortcut,
  isPanelEscape,
  isPickEnter,
  pointOf,
  readStepKey,
  revealStep,
  stepPart,
} from "./step-keys";
import { isActingKey, numberKeyOf, useSendFocus } from "../../ui/takeover-guard";

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

function mount(html: string): HTMLElement {
  const root = document.createElement("div");
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

const noKey = { key: "", code: "", shiftKey: false, altKey: false, ctrlKey: false, metaKey: false };

describe("rule step-focus-target", () => {
  it("focuses the checked radio before the first one", () => {
    const root = mount('<button role="radio" data-state="unchecked">a</button><button role="radio" data-state="checked">b</button>');
    expect(focusStep(root)).toBe(true);
    expect(document.activeElement?.textContent).toBe("b");
  });

  it("focuses the first checkbox, else the free-text textarea, else the one-line field, else the heading", () => {
    const boxes = mount('<button role="checkbox">a</button><textarea data-step-part="custom"></textarea>');
    expect(focusStep(boxes)).toBe(true);
    expect(document.activeElement?.textContent).toBe("a");
    boxes.remove();
    const text = mount('<h2 data-step-part="heading" tabindex="-1">Q</h2><textarea data-step-part="custom" aria-label="answer"></textarea>');
    focusStep(text);
    expect(document.activeElement?.getAttribute("aria-label")).toBe("answer");
    text.remove();
    const field = mount('<h2 data-step-part="heading" tabindex="-1">Q</h2><input data-step-part="custom" aria-label="nights">');
    focusStep(field);
    expect(document.activeElement?.getAttribute("aria-label")).toBe("nights");
    field.remove();
    const options = mount('<h2 data-step-part="heading" tabindex="-1">Q</h2><button role="radio">a</button><input data-step-part="custom">');
    focusStep(options);
    expect(document.activeElement?.textContent).toBe("a");
    options.remove();
    const heading = mount('<h2 data-step-part="heading" tabindex="-1">Q</h2>');
    focusStep(heading);
    expect(document.activeElement?.textContent).toBe("Q");
  });

  it("reports false when the step has nothing to focus, whatever its class names", () => {
    const root = mount('<h2 class="question-panel__question" tabindex="-1">Q</h2>');
    expect(focusStep(root)).toBe(false);
    expect(document.activeElement).toBe(document.body);
  });
});

describe("rule step-scroll", () => {
  it("scrolls the body to its top and the heading into view", () => {
    const root = mount('<div data-body=""><h2 data-step-part="heading">Q</h2></div>');
    const body = root.querySelector<HTMLElement>("[data-body]")!;
    body.scrollTop = 40;
    const heading = root.querySelector("h2")!;
    const scrolled = vi.fn();
    heading.scrollIntoView = scrolled;
    revealStep(root, body);
    expect(body.scrollTop).toBe(0);
    expect(scrolled.mock.calls).toEqual([[{ block: "nearest" }]]);
  });
});

describe("rule answer-shortcut", () => {
  const alt = { altKey: true, ctrlKey: false, metaKey: false, shiftKey: false, code: "KeyQ", isComposing: false };

  it("takes Alt+Q by the physical key, whatever character it types", () => {
    expect(isAnswerShortcut(alt)).toBe(true);
  });

  it("refuses another modifier, another key, or a composition", () => {
    expect([{ ...alt, ctrlKey: true }, { ...alt, metaKey: true }, { ...alt, shiftKey: true }, { ...alt, code: "KeyW" }, { ...alt, isComposing: true }, { ...alt, altKey: false }].map(isAnswerShortcut)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("rule panel-escape", () => {
  it("takes Escape only outside a composition, on an open card, while nothing is in flight", () => {
    const escape = { key: "Escape" };
    expect([
      isPanelEscape(escape, false, false, false),
      isPanelEscape(escape, true, false, false),
      isPanelEscape(escape, false, true, false),
      isPanelEscape(escape, false, false, true),
      isPanelEscape({ key: "Enter" }, false, false, false),
    ]).toEqual([true, false, false, false, false]);
  });
});

describe("rule number-keys", () => {
  it("reads digits 1 to 9 from the main row and the keypad, and nothing else", () => {
    expect(["Digit1", "Numpad9", "Digit0", "KeyA", "Digit10"].map((code) => numberKeyOf({ code }))).toEqual([1, 9, null, null, null]);
  });
});

describe("rule step-keys", () => {
  it("reads Enter in the free-text field and on a checkbox as the primary button", () => {
    const root = mount('<input aria-label="answer"><button role="checkbox">a</button><h2 tabindex="-1">Q</h2>');
    expect(readStepKey({ ...noKey, key: "Enter", target: root.querySelector("input") })).toEqual({ kind: "enter", inText: true });
    expect(readStepKey({ ...noKey, key: "Enter", target: root.querySelector("button") })).toEqual({ kind: "enter", inText: false });
    expect(readStepKey({ ...noKey, key: "Enter", shiftKey: true, target: root.querySelector("input") })).toEqual({ kind: "enter", inText: true });
    expect(readStepKey({ ...noKey, key: "Enter", target: root.querySelector("h2") })).toEqual({ kind: "enter", inText: false });
  });

  it("leaves Enter to a radio, a link, a plain button, and Shift+Enter to the textarea", () => {
    const root = mount('<button role="radio">a</button><a href="#x">link</a><button>Skip</button><textarea></textarea>');
    const targets = ["[role=radio]", "a", "button:not([role])"].map((selector) => root.querySelector(selector));
    expect(targets.map((target) => readStepKey({ ...noKey, key: "Enter", target }))).toEqual([null, null, null]);
    expect(readStepKey({ ...noKey, key: "Enter", shiftKey: true, target: root.querySelector("textarea") })).toBeNull();
  });

  it("reads a number key outside text fields and without modifiers", () => {
    const root = mount('<button role="radio">a</button><input>');
    const radio = root.querySelector("button");
    expect(readStepKey({ ...noKey, key: "２", code: "Digit2", target: radio })).toEqual({ kind: "number", number: 2 });
    expect(readStepKey({ ...noKey, key: "2", code: "Digit2", target: root.querySelector("input") })).toBeNull();
    expect(readStepKey({ ...noKey, key: "2", code: "Digit2", ctrlKey: true, target: radio })).toBeNull();
    expect(readStepKey({ ...noKey, key: "a", code: "KeyA", target: radio })).toBeNull();
  });
});

describe("rule radio-enter", () => {
  it("picks on Enter unless it belongs to a composition", () => {
    expect([isPickEnter({ key: "Enter" }, false), isPickEnter({ key: "Enter" }, true), isPickEnter({ key: " " }, false)]).toEqual([true, false, false]);
  });
});

describe("rule step-guard", () => {
  it("blocks keys and nearby taps inside the window, and takes a far tap or anything after it", () => {
    let now = 1_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const guard = createStepGuard();
    guard.arm({ x: 10, y: 10 });
    now = 1_299;
    expect([guard.blocks(null), guard.blocks({ x: 20, y: 30 }), guard.blocks({ x: 10, y: 60 })]).toEqual([true, true, false]);
    now = 1_300;
    expect(guard.blocks(null)).toBe(false);
  });

  it("blocks every choice after a key-made advance, and nothing once disarmed", () => {
    vi.spyOn(performance, "now").mockReturnValue(0);
    const guard = createStepGuard();
    guard.arm(null);
    expect(guard.blocks({ x: 500, y: 500 })).toBe(true);
    guard.disarm();
    expect(guard.blocks(null)).toBe(false);
  });

  it("counts Enter anywhere, and Space or a number key outside a text field, as a key that acts", () => {
    const field = document.createElement("textarea");
    const button = document.createElement("button");
    const key = (key: string, target: EventTarget, shiftKey = false, code = "") => isActingKey({ key, code, shiftKey, target });
    expect([key("Enter", field), key("Enter", field, true), key(" ", field), key("1", field, false, "Digit1"), key(" ", button), key("1", button, false, "Digit1"), key("a", button)]).toEqual([
      true,
      false,
      false,
      false,
      true,
      true,
      false,
    ]);
  });

  it("reads a pointer click's position and none for a click made by a key", () => {
    expect([pointOf({ detail: 1, clientX: 3, clientY: 4 }), pointOf({ detail: 0, clientX: 3, clientY: 4 })]).toEqual([{ x: 3, y: 4 }, null]);
  });
});

describe("rule send-focus", () => {
  function sendFocusIn(root: HTMLElement) {
    const focusPanel = vi.fn();
    const { result } = renderHook(() => useSendFocus({ current: root }, "q-heading", focusPanel));
    return { focus: result.current, focusPanel };
  }

  it("waits on the heading while a send is out, and goes back to the control it left when the send fails", () => {
    const root = mount('<h2 id="q-heading" tabindex="-1">Q</h2><button role="radio">a</button>');
    const radio = root.querySelector("button")!;
    radio.focus();
    const { focus, focusPanel } = sendFocusIn(root);
    focus.hold();
    expect(document.activeElement?.id).toBe("q-heading");
    focus.restore();
    expect([document.activeElement, focusPanel.mock.calls.length]).toEqual([radio, 0]);
  });

  it("puts focus in the step when that control is gone, and leaves focus the user moved elsewhere", () => {
    const root = mount('<h2 id="q-heading" tabindex="-1">Q</h2><button>Discard</button>');
    const outside = mount("<input>").querySelector("input")!;
    root.querySelector("button")!.focus();
    const { focus, focusPanel } = sendFocusIn(root);
    focus.hold();
    root.querySelector("button")!.remove();
    focus.restore();
    expect(focusPanel).toHaveBeenCalledTimes(1);
    focus.hold();
    outside.focus();
    focus.restore();
    expect([document.activeElement, focusPanel.mock.calls.length]).toEqual([outside, 1]);
  });

  it("takes no focus from outside the panel", () => {
    const root = mount('<h2 id="q-heading" tabindex="-1">Q</h2>');
    const outside = mount("<input>").querySelector("input")!;
    outside.focus();
    const { focus, focusPanel } = sendFocusIn(root);
    focus.hold();
    focus.restore();
    expect([document.activeElement, focusPanel.mock.calls.length]).toEqual([outside, 0]);
  });
});

describe("step parts", () => {
  it("marks a part with its data attribute", () => {
    expect(stepPart("pager")).toEqual({ "data-step-part": "pager" });
  });
});
