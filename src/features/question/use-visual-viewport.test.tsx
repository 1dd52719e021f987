import { render } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useVisualViewport, watchVisualViewport } from "./use-visual-viewport";

class FakeVisualViewport extends EventTarget {
  private shownHeight = 640;
  offsetTop = 0;
  listeners = 0;
  /** How often the height was read: each read brings a real page's layout up to date. */
  reads = 0;
  get height() {
    this.reads++;
    return this.shownHeight;
  }
  set height(value: number) {
    this.shownHeight = value;
  }
  override addEventListener(...args: Parameters<EventTarget["addEventListener"]>) {
    this.listeners++;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget["removeEventListener"]>) {
    this.listeners--;
    super.removeEventListener(...args);
  }
}

function Sheet({ testId = "sheet" }: { testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useVisualViewport(ref);
  return <div ref={ref} data-testid={testId} />;
}

const variables = (element: HTMLElement) => [element.style.getPropertyValue("--vvh"), element.style.getPropertyValue("--vv-bottom")];

const originalViewport = Object.getOwnPropertyDescriptor(window, "visualViewport");
const originalInnerHeight = window.innerHeight;

afterEach(() => {
  if (originalViewport) Object.defineProperty(window, "visualViewport", originalViewport);
  else Reflect.deleteProperty(window, "visualViewport");
  Object.defineProperty(window, "innerHeight", { configurable: true, writable: true, value: originalInnerHeight });
});

describe("useVisualViewport", () => {
  it("mirrors the visual viewport's height and hidden bottom into CSS variables and cleans up", () => {
    const viewport = new FakeVisualViewport();
    Object.defineProperty(window, "visualViewport", { configurable: true, value: viewport });
    Object.defineProperty(window, "innerHeight", { configurable: true, value: 640 });
    const { getByTestId, unmount } = render(<Sheet />);
    const sheet = getByTestId("sheet");
    expect(sheet.style.getPropertyValue("--vvh")).toBe("640px");
    expect(sheet.style.getPropertyValue("--vv-bottom")).toBe("0px");

    viewport.height = 340;
    viewport.dispatchEvent(new Event("resize"));
    expect(sheet.style.getPropertyValue("--vvh")).toBe("340px");
    expect(sheet.style.getPropertyValue("--vv-bottom")).toBe("300px");

    viewport.offsetTop = 100;
    viewport.dispatchEvent(new Event("scroll"));
    expect(sheet.style.getPropertyValue("--vv-bottom")).toBe("200px");

    unmount();
    expect(variables(sheet)).toEqual(["", ""]);
    viewport.height = 500;
    viewport.dispatchEvent(new Event("resize"));
    expect(variables(sheet)).toEqual(["", ""]);
  });

  it("gives a sheet that mounts later the last measure without reading the viewport again, and follows a new viewport object", () => {
    const viewport = new FakeVisualViewport();
    Object.defineProperty(window, "visualViewport", { configurable: true, value: viewport });
    Object.defineProperty(window, "innerHeight", { configurable: true, value: 700 });
    expect(watchVisualViewport()).toBe(viewport);
    viewport.height = 400;
    viewport.dispatchEvent(new Event("resize"));
    const reads = viewport.reads;
    const { getByTestId } = render(<Sheet testId="late" />);
    expect(variables(getByTestId("late"))).toEqual(["400px", "300px"]);
    expect(viewport.reads).toBe(reads);
    // One set of listeners however many sheets and calls.
    watchVisualViewport();
    expect(viewport.listeners).toBe(2);

    const next = new FakeVisualViewport();
    next.height = 600;
    Object.defineProperty(window, "visualViewport", { configurable: true, value: next });
    expect(watchVisualViewport()).toBe(next);
    expect(viewport.listeners).toBe(0);
    expect(next.listeners).toBe(2);
    expect(variables(getByTestId("late"))).toEqual(["600px", "100px"]);
  });
});
