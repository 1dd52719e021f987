import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LocaleProvider } from "../../i18n/i18n";
import { Composer } from "./composer";
import type { ComposerCommand } from "./commands";

const COMMANDS: ComposerCommand[] = [
  { name: "/ask", usage: "<json>", description: "Ask you questions" },
  { name: "/plan", usage: "<markdown>", description: "Present a plan" },
  { name: "/tool", usage: "<name> <json>", description: "Call a tool" },
  { name: "/echo", usage: "<text>", description: "Reply with the text" },
];

function setup(commands: ComposerCommand[] = COMMANDS) {
  const sent: string[] = [];
  render(<Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={async (text) => void sent.push(text)} commands={commands} />);
  return { sent, input: screen.getByRole("textbox", { name: "Message" }) };
}

describe("the composer's / menu", () => {
  it("opens on / with every command, its arguments, what it does and how to use the menu", async () => {
    const user = userEvent.setup();
    const { input } = setup();
    await user.type(input, "/");
    const menu = screen.getByRole("listbox", { name: "Commands" });
    expect(within(menu).getAllByRole("option").map((option) => option.textContent)).toEqual([
      "/ask <json>Ask you questions",
      "/plan <markdown>Present a plan",
      "/tool <name> <json>Call a tool",
      "/echo <text>Reply with the text",
    ]);
    expect(screen.getByText("↑ ↓ to choose · Enter or Tab to complete · Esc to close")).toBeVisible();
    expect(input).toHaveAttribute("aria-activedescendant", within(menu).getAllByRole("option")[0]!.id);
  });

  it("narrows as the name is typed and completes it with Enter instead of sending", async () => {
    const user = userEvent.setup();
    const { input, sent } = setup();
    await user.type(input, "/e");
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual(["/echo <text>Reply with the text"]);
    await user.keyboard("{Enter}");
    expect(input).toHaveValue("/echo ");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    await user.keyboard("Dark mode{Enter}");
    expect(sent).toEqual(["/echo Dark mode"]);
  });

  it("moves with the arrows, wrapping, and completes with Tab", async () => {
    const user = userEvent.setup();
    const { input } = setup();
    await user.type(input, "/");
    await user.keyboard("{ArrowUp}");
    expect(screen.getAllByRole("option")[3]).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowDown}{ArrowDown}{Tab}");
    expect(input).toHaveValue("/plan ");
    expect(input).toHaveFocus();
  });

  it("closes on Escape, keeping the text, and a click on an option completes it", async () => {
    const user = userEvent.setup();
    const { input } = setup();
    await user.type(input, "/");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    expect(input).toHaveValue("/");
    await user.type(input, "t");
    await user.click(screen.getByRole("option", { name: /\/tool/ }));
    expect(input).toHaveValue("/tool ");
    expect(input).toHaveFocus();
  });

  it("closes when a click outside moves focus elsewhere in the page, keeping the text, and opens again when the box is focused", async () => {
    const user = userEvent.setup();
    const sent: string[] = [];
    render(
      <>
        <Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={async (text) => void sent.push(text)} commands={COMMANDS} />
        <button type="button">Elsewhere</button>
      </>,
    );
    const input = screen.getByRole("textbox", { name: "Message" });
    await user.type(input, "/p");
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual(["/plan <markdown>Present a plan"]);
    // The page keeps the window's focus (jsdom has no window focus of its own to tell).
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    await user.click(screen.getByRole("button", { name: "Elsewhere" }));
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    expect(input).toHaveValue("/p");
    expect(input).not.toHaveAttribute("aria-controls");
    await user.click(input);
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual(["/plan <markdown>Present a plan"]);
    expect(sent).toEqual([]);
    vi.restoreAllMocks();
  });

  it("stays closed after Escape when the box is focused again, until the text changes", async () => {
    const user = userEvent.setup();
    const { input } = setup();
    await user.type(input, "/");
    await user.keyboard("{Escape}");
    fireEvent.blur(input);
    fireEvent.focus(input);
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    await user.type(input, "p");
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual(["/plan <markdown>Present a plan"]);
  });

  it("stays open while the window loses focus to another app, for the return", async () => {
    const user = userEvent.setup();
    const { input } = setup();
    await user.type(input, "/");
    const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
    try {
      fireEvent.blur(input);
    } finally {
      hasFocus.mockRestore();
    }
    expect(screen.getAllByRole("option")).toHaveLength(4);
  });

  it("stays open on an Escape that closes an IME's candidates, as Safari sends it after compositionend, and closes on the next", async () => {
    const user = userEvent.setup();
    const { input } = setup();
    await user.type(input, "/");
    fireEvent.compositionStart(input);
    fireEvent.compositionEnd(input);
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.keyDown(input, { key: "Escape", keyCode: 229 });
    expect(screen.getByRole("listbox", { name: "Commands" })).toBeVisible();
    fireEvent.keyDown(input, { key: "Escape", keyCode: 27 });
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
  });

  it("offers commands given as data, such as an agent's own", async () => {
    const user = userEvent.setup();
    const { input } = setup([{ name: "/explain", usage: "<file>", description: "Explain a file, as the agent describes it" }]);
    await user.type(input, "/ex");
    expect(screen.getByRole("option", { name: /^\/explain <file>\s?Explain a file, as the agent describes it$/ })).toBeVisible();
  });

  it("shows no menu without commands or for text that is not a command", async () => {
    const user = userEvent.setup();
    const { input } = setup([]);
    await user.type(input, "/");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
  });

  it("speaks Chinese", async () => {
    const user = userEvent.setup();
    render(
      <LocaleProvider initial="zh-CN" setsDocumentLanguage={false}>
        <Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={async () => undefined} commands={COMMANDS} />
      </LocaleProvider>,
    );
    await user.type(screen.getByRole("textbox", { name: "消息" }), "/");
    expect(screen.getByRole("listbox", { name: "命令" })).toBeVisible();
    expect(screen.getByText("↑ ↓ 选择 · Enter 或 Tab 补全 · Esc 关闭")).toBeVisible();
  });
});
