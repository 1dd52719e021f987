import { describe, expect, it, vi } from "vitest";
import { render, waitFor } from "@testing-library/react";
import { LazyInlineEdit } from "./lazy-inline-edit";

vi.mock("./inline-edit", () => {
  throw new Error("the editor's chunk could not be fetched");
});

describe("the title editor loaded with the first rename", () => {
  it("ends the edit when its code cannot load, so the title comes back", async () => {
    const onDone = vi.fn();
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { container } = render(<LazyInlineEdit initial="Budget" label="Chat title" onSave={async () => undefined} onDone={onDone} describe={String} />);
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(container.innerHTML).toBe("");
    quiet.mockRestore();
  });
});
