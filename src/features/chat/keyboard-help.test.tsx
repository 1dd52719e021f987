import { describe, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LocaleProvider } from "../../i18n/i18n";
import { isTypingTarget } from "../../ui/typing-target";
import { KeyboardHelp } from "./keyboard-help";

describe("KeyboardHelp", () => {
  it("lists the chat's and the panel's shortcuts and closes with Close", async () => {
    const user = userEvent.setup();
    let closed = 0;
    render(<KeyboardHelp open onClose={() => (closed += 1)} />);
    const dialog = screen.getByRole("dialog", { name: "Keyboard shortcuts" });
    const chat = within(dialog).getByRole("region", { name: "Chat" });
    expect(within(chat).getAllByRole("definition").map((node) => node.textContent)).toEqual([
      "Send the message (on a touch keyboard Enter is a new line; use Send)",
      "New line in the message",
      "Stop the running reply (when no question panel is open)",
      "Open the command menu (in an empty message box): ↑ ↓ choose, Enter or Tab complete, Esc closes it",
      "Show this list (when not typing)",
    ]);
    const panel = within(dialog).getByRole("region", { name: "Question panel" });
    expect(within(panel).getAllByRole("term").map((node) => node.textContent)).toEqual(["AltQ", "1…9", "↑↓←→", "HomeEnd", "Enter", "ShiftEnter", "Esc"]);
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(closed).toBe(1);
  });

  it("speaks Chinese under a Chinese UI", () => {
    render(
      <LocaleProvider initial="zh-CN">
        <KeyboardHelp open onClose={() => undefined} />
      </LocaleProvider>,
    );
    const dialog = screen.getByRole("dialog", { name: "键盘快捷键" });
    expect(within(dialog).getByRole("region", { name: "提问面板" })).toHaveTextContent("将面板折叠为一行");
  });
});

describe("isTypingTarget", () => {
  it("treats text fields, selects and editable content as typing, and buttons or checkboxes as not", () => {
    const make = (html: string) => {
      const host = document.createElement("div");
      host.innerHTML = html;
      return host.firstElementChild;
    };
    expect([make("<textarea></textarea>"), make("<input>"), make('<input type="search">'), make("<select></select>")].map(isTypingTarget)).toEqual([true, true, true, true]);
    expect([make("<button></button>"), make('<input type="checkbox">'), make("<div></div>"), null].map(isTypingTarget)).toEqual([false, false, false, false]);
  });
});
