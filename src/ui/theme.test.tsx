import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleProvider } from "../i18n/i18n";
import { applyTheme, readRememberedTheme, setTheme } from "./theme";
import { ThemeSwitch } from "./theme-switch";

afterEach(() => {
  document.documentElement.removeAttribute("data-theme");
});

describe("theme controller", () => {
  it("sets data-theme for light and dark and removes it for system", () => {
    applyTheme("dark");
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
    applyTheme("light");
    expect(document.documentElement.getAttribute("data-theme")).toBe("light");
    applyTheme("system");
    expect(document.documentElement.hasAttribute("data-theme")).toBe(false);
  });

  it("remembers the chosen theme in localStorage", () => {
    setTheme("dark");
    expect(localStorage.getItem("parley.theme")).toBe("dark");
    expect(readRememberedTheme()).toBe("dark");
  });

  it("falls back to the system theme for an unknown remembered value", () => {
    localStorage.setItem("parley.theme", "sepia");
    expect(readRememberedTheme()).toBe("system");
  });

  it("follows a choice made in another tab", () => {
    setTheme("light");
    render(
      <LocaleProvider initial="en">
        <ThemeSwitch />
      </LocaleProvider>,
    );
    window.dispatchEvent(new StorageEvent("storage", { key: "parley.theme", newValue: "dark" }));
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
  });

  it("lets the user switch themes from the theme select", async () => {
    setTheme("system");
    const user = userEvent.setup();
    render(
      <LocaleProvider initial="zh-CN">
        <ThemeSwitch />
      </LocaleProvider>,
    );
    const select = screen.getByRole("combobox", { name: "主题" });
    await user.selectOptions(select, "深色");
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
    expect(localStorage.getItem("parley.theme")).toBe("dark");
    expect(select).toHaveValue("dark");
  });
});
