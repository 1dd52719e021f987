import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LocaleProvider, useLocale } from "./i18n";

function Switch() {
  const { locale, setLocale } = useLocale();
  return (
    <button type="button" onClick={() => setLocale(locale === "en" ? "zh-CN" : "en")}>
      {locale}
    </button>
  );
}

describe("LocaleProvider", () => {
  it("keeps <html lang> on the UI language as it changes", async () => {
    const user = userEvent.setup();
    document.documentElement.lang = "en";
    render(
      <LocaleProvider initial="zh-CN">
        <Switch />
      </LocaleProvider>,
    );
    expect(document.documentElement.lang).toBe("zh-CN");
    await user.click(screen.getByRole("button", { name: "zh-CN" }));
    expect(document.documentElement.lang).toBe("en");
  });

  it("leaves <html lang> alone when told to (a nested provider for one part of a page)", () => {
    document.documentElement.lang = "en";
    render(
      <LocaleProvider initial="zh-CN" setsDocumentLanguage={false}>
        <Switch />
      </LocaleProvider>,
    );
    expect(document.documentElement.lang).toBe("en");
  });
});
