import { describe, expect, it } from "vitest";
import { LOCALES } from "../i18n/locale";
import { markdownMessages } from "./markdown-messages";

describe("markdown copy", () => {
  it("has the same keys, none blank, in every locale", () => {
    const english = Object.keys(markdownMessages.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(markdownMessages[locale]).sort(), locale).toEqual(english);
      expect(Object.entries(markdownMessages[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
    }
  });
});
