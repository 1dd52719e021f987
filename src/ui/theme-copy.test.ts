import { describe, expect, it } from "vitest";
import { LOCALES } from "../i18n/locale";
import { themeCopy } from "./theme-copy";

describe("theme copy", () => {
  it("has the same keys, none blank, in every locale", () => {
    const english = Object.keys(themeCopy.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(themeCopy[locale]).sort(), locale).toEqual(english);
      expect(Object.entries(themeCopy[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
    }
  });
});
