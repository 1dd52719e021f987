import { describe, expect, it } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Composer } from "./composer";

function setup(options: { blockedReason?: string | null; fail?: string } = {}) {
  const sent: string[] = [];
  const drafts = new Map<string, string>();
  const onSend = async (text: string) => {
    if (options.fail) throw new Error(options.fail);
    sent.push(text);
  };
  const view = render(<Composer draftKey="s-1" drafts={drafts} blockedReason={options.blockedReason ?? null} onSend={onSend} />);
  const input = screen.getByRole("textbox", { name: "Message" });
  return { sent, drafts, input, view, onSend };
}

describe("Composer", () => {
  it("sends the text on Enter and clears the box", async () => {
    const user = userEvent.setup();
    const { sent, input } = setup();
    await user.type(input, "hello{Enter}");
    expect(sent).toEqual(["hello"]);
    expect(input).toHaveValue("");
  });

  it("sends with the Send button", async () => {
    const user = userEvent.setup();
    const { sent, input } = setup();
    await user.type(input, "by click");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(sent).toEqual(["by click"]);
    expect(input).toHaveFocus();
  });

  it("inserts a newline on Shift+Enter instead of sending", async () => {
    const user = userEvent.setup();
    const { sent, input } = setup();
    await user.type(input, "line one{Shift>}{Enter}{/Shift}line two");
    expect(sent).toEqual([]);
    expect(input).toHaveValue("line one\nline two");
  });

  it("does not send on an Enter that confirms an IME candidate (isComposing)", async () => {
    const { sent, input } = setup();
    fireEvent.change(input, { target: { value: "nihao" } });
    fireEvent.keyDown(input, { key: "Enter", isComposing: true });
    expect(sent).toEqual([]);
    expect(input).toHaveValue("nihao");
  });

  it("does not send on an Enter with keyCode 229 (IME processing)", async () => {
    const { sent, input } = setup();
    fireEvent.change(input, { target: { value: "你好" } });
    fireEvent.keyDown(input, { key: "Enter", keyCode: 229 });
    expect(sent).toEqual([]);
  });

  it("ignores an Enter in the same tick as compositionend (Safari) and sends on a later one", async () => {
    const { sent, input } = setup();
    fireEvent.change(input, { target: { value: "你好" } });
    fireEvent.compositionEnd(input, { data: "你好" });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(sent).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.keyDown(input, { key: "Enter" });
    await screen.findByDisplayValue("");
    expect(sent).toEqual(["你好"]);
  });

  it("does not send blank text", async () => {
    const user = userEvent.setup();
    const { sent, input } = setup();
    await user.type(input, "   {Enter}");
    expect(sent).toEqual([]);
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("shows why it cannot send while a turn runs, keeps typing possible and does not send on Enter", async () => {
    const user = userEvent.setup();
    const { sent, input } = setup({ blockedReason: "You can send when the assistant has finished, or press Stop." });
    await user.type(input, "next question{Enter}");
    expect(sent).toEqual([]);
    expect(input).toHaveValue("next question");
    expect(screen.getByText("You can send when the assistant has finished, or press Stop.")).toBeVisible();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("keeps the text and shows the reason when sending fails", async () => {
    const user = userEvent.setup();
    const { input } = setup({ fail: "a turn is already running" });
    await user.type(input, "keep me{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not send: a turn is already running");
    expect(input).toHaveValue("keep me");
  });

  it("keeps a draft per key and restores it when its key comes back", async () => {
    const user = userEvent.setup();
    const { input, view, drafts, onSend } = setup();
    await user.type(input, "draft for one");
    view.rerender(<Composer draftKey="s-2" drafts={drafts} blockedReason={null} onSend={onSend} />);
    expect(input).toHaveValue("");
    view.rerender(<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={onSend} />);
    expect(input).toHaveValue("draft for one");
  });
});
