import { describe, expect, it } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { LocaleProvider } from "../../i18n/i18n";
import userEvent from "@testing-library/user-event";
import { Composer } from "./composer";

function setup(options: { blockedReason?: string | null; fail?: string; recipient?: string } = {}) {
  const sent: string[] = [];
  const drafts = new Map<string, string>();
  const onSend = async (text: string) => {
    if (options.fail) throw new Error(options.fail);
    sent.push(text);
  };
  const view = render(<Composer draftKey="s-1" drafts={drafts} blockedReason={options.blockedReason ?? null} onSend={onSend} {...(options.recipient ? { recipient: options.recipient } : {})} />);
  const input = screen.getByRole("textbox", { name: "Message" });
  return { sent, drafts, input, view, onSend };
}

/** An onSend whose calls stay in flight until the test settles each one, resolved or failed. */
function sendsInFlight() {
  const pending: { text: string; settle: (error?: Error) => void }[] = [];
  const onSend = (text: string) => new Promise<void>((resolve, reject) => pending.push({ text, settle: (error) => (error ? reject(error) : resolve()) }));
  return { pending, onSend };
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

  it("does not send on an Enter between compositionstart and compositionend", async () => {
    const { sent, input } = setup();
    fireEvent.compositionStart(input, { data: "" });
    fireEvent.change(input, { target: { value: "你好" } });
    fireEvent.keyDown(input, { key: "Enter" });
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
    const { sent, input } = setup({ blockedReason: "You can send when Parley's assistant has finished, or press Stop." });
    await user.type(input, "next question{Enter}");
    expect(sent).toEqual([]);
    expect(input).toHaveValue("next question");
    expect(screen.getByText("You can send when Parley's assistant has finished, or press Stop.")).toBeVisible();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("puts the text back and says, translated, what happened when sending fails", async () => {
    const user = userEvent.setup();
    const { input } = setup({ fail: "a turn is already running" });
    await user.type(input, "keep me{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("Your message was not sent and is back in the box. The host said: a turn is already running");
    expect(input).toHaveValue("keep me");
  });

  it("keeps what is typed while the message is in flight, and puts the sent text back in front of it when the send fails", async () => {
    const user = userEvent.setup();
    const { pending, onSend } = sendsInFlight();
    render(<Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={onSend} />);
    const input = screen.getByRole("textbox", { name: "Message" });
    await user.type(input, "first{Enter}");
    expect(input).toHaveValue("");
    await user.type(input, "typed meanwhile");
    await act(async () => pending[0]!.settle());
    expect(input).toHaveValue("typed meanwhile");

    await user.clear(input);
    await user.type(input, "second{Enter}");
    await user.type(input, "more");
    await act(async () => pending[1]!.settle(new TypeError("Failed to fetch")));
    expect(input).toHaveValue("second\nmore");
    expect(screen.getByRole("alert")).toHaveTextContent("Your message was not sent and is back in the box. Parley's host cannot be reached; check that it is running.Retry");
    expect(pending.map((call) => call.text)).toEqual(["first", "second"]);

    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(pending.map((call) => call.text)).toEqual(["first", "second", "second\nmore"]);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says why a send failed when the user comes back to its chat, once, if they had moved to another meanwhile", async () => {
    const user = userEvent.setup();
    const { pending, onSend } = sendsInFlight();
    const drafts = new Map<string, string>();
    const view = render(<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={onSend} />);
    const input = screen.getByRole("textbox", { name: "Message" });
    await user.type(input, "sent from one{Enter}");
    view.rerender(<Composer draftKey="s-2" drafts={drafts} blockedReason={null} onSend={onSend} />);
    await act(async () => pending[0]!.settle(new TypeError("Failed to fetch")));
    expect([input, screen.queryByRole("alert")]).toEqual([screen.getByRole("textbox", { name: "Message" }), null]);
    expect(input).toHaveValue("");
    view.rerender(<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={onSend} />);
    expect(input).toHaveValue("sent from one");
    expect(screen.getByRole("alert")).toHaveTextContent("Your message was not sent and is back in the box. Parley's host cannot be reached; check that it is running.");
    view.rerender(<Composer draftKey="s-2" drafts={drafts} blockedReason={null} onSend={onSend} />);
    view.rerender(<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={onSend} />);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("sends what Enter confirmed while the previous message was in flight, once that one is through, in order", async () => {
    const user = userEvent.setup();
    const { pending, onSend } = sendsInFlight();
    render(<Composer draftKey="s-1" drafts={new Map()} blockedReason={null} onSend={onSend} />);
    const input = screen.getByRole("textbox", { name: "Message" });
    await user.type(input, "first{Enter}");
    await user.type(input, "second{Enter}");
    expect(pending.map((call) => call.text)).toEqual(["first"]);
    expect(input).toHaveValue("second");
    expect(screen.getByRole("button", { name: "Send" })).toBeEnabled();

    await act(async () => pending[0]!.settle());
    expect(pending.map((call) => call.text)).toEqual(["first", "second"]);
    expect(input).toHaveValue("");
    await act(async () => pending[1]!.settle());
    expect(pending.map((call) => call.text)).toEqual(["first", "second"]);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("drops a waiting Enter when the text changes after it, when the message in flight fails, or when a turn starts meanwhile", async () => {
    const user = userEvent.setup();
    const { pending, onSend } = sendsInFlight();
    const drafts = new Map<string, string>();
    const view = render(<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={onSend} />);
    const input = screen.getByRole("textbox", { name: "Message" });
    await user.type(input, "first{Enter}");
    await user.type(input, "second{Enter} edited");
    await act(async () => pending[0]!.settle());
    expect(pending.map((call) => call.text)).toEqual(["first"]);
    expect(input).toHaveValue("second edited");

    await user.clear(input);
    await user.type(input, "third{Enter}");
    await user.type(input, "fourth{Enter}");
    await act(async () => pending[1]!.settle(new Error("the host is busy")));
    expect(pending.map((call) => call.text)).toEqual(["first", "third"]);
    expect(input).toHaveValue("third\nfourth");
    expect(screen.getByRole("alert")).toHaveTextContent("Your message was not sent and is back in the box. The host said: the host is busy");

    await user.clear(input);
    await user.type(input, "fifth{Enter}");
    await user.type(input, "sixth{Enter}");
    view.rerender(<Composer draftKey="s-1" drafts={drafts} blockedReason="You can send when Parley's assistant has finished, or press Stop." onSend={onSend} />);
    await act(async () => pending[2]!.settle());
    view.rerender(<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={onSend} />);
    expect(pending.map((call) => call.text)).toEqual(["first", "third", "fifth"]);
    expect(input).toHaveValue("sixth");
  });

  it("says the failure in Chinese under a Chinese UI", async () => {
    const user = userEvent.setup();
    render(
      <LocaleProvider initial="zh-CN">
        <Composer
          draftKey="s-1"
          drafts={new Map()}
          blockedReason={null}
          onSend={async () => {
            throw new TypeError("Failed to fetch");
          }}
        />
      </LocaleProvider>,
    );
    await user.type(screen.getByRole("textbox", { name: "消息" }), "你好{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("消息未发送，已放回输入框。无法连接到 Parley 主机，请确认它正在运行。重试");
  });

  it("on a touch device inserts a newline on Enter and sends only with the Send button", async () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query === "(hover: none) and (pointer: coarse)",
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
    try {
      const user = userEvent.setup();
      const { sent, input } = setup();
      expect(input).toHaveAttribute("placeholder", "Message Parley");
      expect(input).toHaveAttribute("enterkeyhint", "enter");
      await user.type(input, "line one{Enter}line two");
      expect(sent).toEqual([]);
      expect(input).toHaveValue("line one\nline two");
      await user.click(screen.getByRole("button", { name: "Send" }));
      expect(sent).toEqual(["line one\nline two"]);
    } finally {
      window.matchMedia = original;
    }
  });

  it("on desktop advertises Enter to send, and Enter sends", () => {
    const { input } = setup();
    expect(input).toHaveAttribute("placeholder", "Message Parley (Enter to send, Shift+Enter for a new line)");
    expect(input).toHaveAttribute("enterkeyhint", "send");
  });

  it("names a coding agent as the one the message goes to", () => {
    const { input } = setup({ recipient: "Qwen Code" });
    expect(input).toHaveAttribute("placeholder", "Message Qwen Code (Enter to send, Shift+Enter for a new line)");
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

  it("adds text handed to it after what it holds, once per handover, and reports it taken", async () => {
    const user = userEvent.setup();
    const { input, view, drafts, onSend } = setup();
    await user.type(input, "half typed");
    const taken: string[] = [];
    const prefill = { text: "Why step 2?" };
    view.rerender(<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={onSend} prefill={prefill} onPrefillTaken={() => taken.push(prefill.text)} />);
    expect(input).toHaveValue("half typed\nWhy step 2?");
    expect(drafts.get("s-1")).toBe("half typed\nWhy step 2?");
    expect(taken).toEqual(["Why step 2?"]);
    view.rerender(<Composer draftKey="s-1" drafts={drafts} blockedReason={null} onSend={onSend} prefill={prefill} />);
    expect(input).toHaveValue("half typed\nWhy step 2?");
  });
});
