import { act, fireEvent, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../../protocol/schemas";
import { useFollow } from "./use-follow";

/** A scrolling box with the given content height, as jsdom lays nothing out. */
function scroller(contentHeight: number) {
  const element = document.createElement("section");
  let height = contentHeight;
  let top = 0;
  Object.defineProperty(element, "scrollHeight", { configurable: true, get: () => height });
  Object.defineProperty(element, "scrollTop", { configurable: true, get: () => top, set: (value: number) => (top = value) });
  return { element, grow: (next: number) => (height = next) };
}

const message = (id: string): Message => ({ id, sessionId: "s-1", role: "assistant", createdAt: "2026-11-30T10:00:00.000Z", text: id });

describe("useFollow", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "requestAnimationFrame", "cancelAnimationFrame"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("holds the view still while a pointer is pressed, so the row under it stays, and catches up with the end on release", async () => {
    const { element, grow } = scroller(1000);
    const scrollRef = { current: element };
    const rowsRef = { current: document.createElement("div") };
    const { rerender } = renderHook(({ messages }) => useFollow({ scrollRef, rowsRef, messages, followSignal: 0 }), { initialProps: { messages: [message("a")] } });
    expect(element.scrollTop).toBe(1000);

    fireEvent.pointerDown(document.body);
    grow(1600);
    rerender({ messages: [message("a"), message("b")] });
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(element.scrollTop).toBe(1000);

    grow(2000);
    rerender({ messages: [message("a"), message("b"), message("c")] });
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(element.scrollTop).toBe(1000);

    fireEvent.pointerUp(document.body);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(element.scrollTop).toBe(2000);

    // With no press, a new row is followed within its frame.
    grow(2400);
    rerender({ messages: [message("a"), message("b"), message("c"), message("d")] });
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(element.scrollTop).toBe(2400);
  });
});
