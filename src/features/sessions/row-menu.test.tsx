import { describe, expect, it } from "vitest";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { RowMenu } from "./row-menu";

describe("RowMenu", () => {
  it("opens on its first item, closes on Escape with focus back on its button, and closes when focus goes elsewhere", async () => {
    const user = userEvent.setup();
    const chosen: string[] = [];
    render(
      <>
        <RowMenu title="Plans" items={[{ label: "Rename", name: "Rename Plans", onChoose: () => chosen.push("rename") }]} />
        <input aria-label="Elsewhere" />
      </>,
    );
    const button = screen.getByRole("button", { name: "Actions for “Plans”" });
    await user.click(button);
    expect(screen.getByRole("menuitem", { name: "Rename Plans" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(button).toHaveFocus();

    await user.click(button);
    expect(screen.getByRole("menu")).toBeInTheDocument();
    act(() => screen.getByRole("textbox", { name: "Elsewhere" }).focus());
    expect(screen.queryByRole("menu")).toBeNull();
    expect(chosen).toEqual([]);
  });
});
