import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import type { SessionEngine } from "../client/session-engine";
import { LocaleProvider } from "../i18n/i18n";
import { createSessionStore } from "../store/session-store";
import { useUndoDelete } from "./undo-delete";

function fakeEngine() {
  return { requestDelete: vi.fn(), undoDelete: vi.fn(() => true), flushDeletes: vi.fn() };
}

function renderUndo(engine: ReturnType<typeof fakeEngine>) {
  const store = createSessionStore({ sessions: [{ id: "s-1", title: "Plans", createdAt: "2026-11-30T10:00:00.000Z", updatedAt: "2026-11-30T10:00:00.000Z", state: "idle" }] });
  let requestDelete: (sessionId: string) => void = () => undefined;
  function Harness() {
    const undo = useUndoDelete(engine as unknown as SessionEngine, store);
    requestDelete = undo.requestDelete;
    return <>{undo.toast}</>;
  }
  render(
    <LocaleProvider initial="en" setsDocumentLanguage={false}>
      <Harness />
    </LocaleProvider>,
  );
  act(() => requestDelete("s-1"));
  expect(screen.getByRole("button", { name: "Undo" })).toBeVisible();
}

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  act(() => {
    document.dispatchEvent(new Event("visibilitychange"));
  });
}

afterEach(() => {
  cleanup();
  delete (document as { visibilityState?: unknown }).visibilityState;
});

describe("useUndoDelete", () => {
  it("deletes what waits in the undo window at once when the page is hidden, and takes Undo away with it", () => {
    const engine = fakeEngine();
    renderUndo(engine);
    setVisibility("hidden");
    expect(engine.flushDeletes).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("button", { name: "Undo" })).toBeNull();
  });

  it("does not flush when the page becomes visible again", () => {
    const engine = fakeEngine();
    renderUndo(engine);
    setVisibility("visible");
    expect(engine.flushDeletes).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Undo" })).toBeVisible();
  });

  it("deletes at once on pagehide too", () => {
    const engine = fakeEngine();
    renderUndo(engine);
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(engine.flushDeletes).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("button", { name: "Undo" })).toBeNull();
  });
});
