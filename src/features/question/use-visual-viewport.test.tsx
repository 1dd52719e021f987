import { render } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useVisualViewport } from "./use-visual-viewport";

class FakeVisualViewport extends EventTarget {
  height = 640;
  offsetTop = 0;
  listeners = 0;
  override addEventListener(...args: Parameters<EventTarget["addEventListener"]>) {
    this.listeners++;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget["removeEventListener"]>) {
    this.listeners--;
    super.removeEventListener(...args);
  }
}

function Sheet() {
  const ref = useRef<HTMLDivElement>(null);
  useVisualViewport(ref);
  return <div ref={ref} data-testid="sheet" />;
}

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

    expect(viewport.listeners).toBe(2);
    unmount();
    expect(viewport.listeners).toBe(0);
  });
});
