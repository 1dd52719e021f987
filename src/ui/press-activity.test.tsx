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

    it("runs once a press ends where the page cannot hear its release: a Control-click's menu, a move with no button held, another window", async () => {
      const endings = [
        () => fireEvent.contextMenu(document.body),
        () => fireEvent.pointerMove(document.body, { buttons: 0 }),
        () => fireEvent.blur(window),
      ];
      for (const end of endings) {
        const run = vi.fn();
        fireEvent.pointerDown(document.body, { button: 0 });
        afterPress(run);
        fireEvent.pointerMove(document.body, { buttons: 1 });
        await vi.runAllTimersAsync();
        expect(run).not.toHaveBeenCalled();
        end();
        await vi.runAllTimersAsync();
        expect(run).toHaveBeenCalledTimes(1);
      }
    });

    it("does not count a right-button press, which clicks nothing", () => {
      const run = vi.fn();
      fireEvent.pointerDown(document.body, { button: 2 });
      afterPress(run);
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
