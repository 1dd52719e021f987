import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { InlineEdit } from "./inline-edit";

/** Lets the tick of a `compositionend` pass, after which a key is the user's own again. */
const nextTick = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

function renderEdit() {
  const onSave = vi.fn(async (_value: string) => undefined);
  const onDone = vi.fn();
  render(<InlineEdit initial="Old title" label="Chat title" onSave={onSave} onDone={onDone} describe={String} />);
  const field = screen.getByRole("textbox", { name: "Chat title" });
  return { field, onSave, onDone };
}

/** Types `text` through an IME, as Safari reports it: the composition ends before the key that confirmed it. */
function compose(field: HTMLElement, text: string) {
  fireEvent.compositionStart(field);
  fireEvent.change(field, { target: { value: text } });
  fireEvent.compositionEnd(field);
}

describe("InlineEdit with an IME", () => {
  it("saves nothing on the Enter that confirms a candidate, and the typed title on the next Enter", async () => {
    const { field, onSave } = renderEdit();
    compose(field, "新しい");
    fireEvent.keyDown(field, { key: "Enter", keyCode: 13 });
    expect(onSave).not.toHaveBeenCalled();
    await nextTick();
    compose(field, "新しい題");
    await nextTick();
    fireEvent.keyDown(field, { key: "Enter", keyCode: 13 });
    await act(async () => undefined);
    expect(onSave.mock.calls).toEqual([["新しい題"]]);
  });

  it("keeps the rename open on the Escape that closes the candidates, and cancels on the next Escape", async () => {
    const { field, onDone } = renderEdit();
    compose(field, "新");
    fireEvent.keyDown(field, { key: "Escape", keyCode: 229 });
    await nextTick();
    fireEvent.keyDown(field, { key: "Escape", keyCode: 229 });
    expect([onDone.mock.calls.length, (field as HTMLInputElement).value]).toEqual([0, "新"]);
    fireEvent.keyDown(field, { key: "Escape", keyCode: 27 });
    expect(onDone).toHaveBeenCalledTimes(1);
  });
});
