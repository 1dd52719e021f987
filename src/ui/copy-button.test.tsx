import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LocaleProvider } from "../i18n/i18n";
import { CopyButton } from "./copy-button";

describe("CopyButton", () => {
  it("copies the text and reads Copied", async () => {
    const user = userEvent.setup();
    render(<CopyButton text={"**markdown** as written"} />);
    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(await navigator.clipboard.readText()).toBe("**markdown** as written");
    expect(screen.getByRole("button", { name: "Copied" })).toBeInTheDocument();
  });

  it("says so, in the UI language, when the clipboard refuses", async () => {
    const user = userEvent.setup();
    const warn = console.warn;
    console.warn = () => undefined;
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) } });
    try {
      render(
        <LocaleProvider initial="zh-CN">
          <CopyButton text="x" />
        </LocaleProvider>,
      );
      await user.click(screen.getByRole("button", { name: "复制" }));
      expect(await screen.findByRole("alert")).toHaveTextContent("复制失败：请选中文本后按 Ctrl+C");
    } finally {
      console.warn = warn;
    }
  });
});
