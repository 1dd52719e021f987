import { describe, expect, it } from "vitest";
import { LOCALES } from "../i18n/locale";
import { markdownCopy } from "./markdown-copy";

describe("markdown copy", () => {
  it("has the same keys, none blank, in every locale", () => {
    const english = Object.keys(markdownCopy.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(markdownCopy[locale]).sort(), locale).toEqual(english);
      expect(Object.entries(markdownCopy[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
    }
  });
});
