import { fireEvent } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterPress } from "./press-activity";

describe("afterPress", () => {
  it("runs at once when no pointer is pressed", () => {
    const run = vi.fn();
    afterPress(run);
    expect(run).toHaveBeenCalledTimes(1);
  });

  describe("with a pointer pressed", () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it("waits for the press to be released, and for its click, before running once", async () => {
      const run = vi.fn();
      fireEvent.pointerDown(document.body);
      afterPress(run);
      expect(run).not.toHaveBeenCalled();
      fireEvent.pointerUp(document.body);
      expect(run).not.toHaveBeenCalled();
      await vi.runAllTimersAsync();
      expect(run).toHaveBeenCalledTimes(1);
      fireEvent.pointerDown(document.body);
      fireEvent.pointerUp(document.body);
      await vi.runAllTimersAsync();
      expect(run).toHaveBeenCalledTimes(1);
    });

    it("runs when the press is cancelled instead", async () => {
      const run = vi.fn();
      fireEvent.pointerDown(document.body);
      afterPress(run);
      fireEvent.pointerCancel(document.body);
      await vi.runAllTimersAsync();
      expect(run).toHaveBeenCalledTimes(1);
    });
  });
});
