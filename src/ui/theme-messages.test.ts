import { describe, expect, it } from "vitest";
import { LOCALES } from "../i18n/locale";
import { themeMessages } from "./theme-messages";

describe("theme copy", () => {
  it("has the same keys, none blank, in every locale", () => {
    const english = Object.keys(themeMessages.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(themeMessages[locale]).sort(), locale).toEqual(english);
      expect(Object.entries(themeMessages[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
    }
  });
});
