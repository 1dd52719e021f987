import { describe, expect, it } from "vitest";
import { LOCALES } from "../../i18n/locale";
import { attentionCopy } from "./copy";

describe("attention copy", () => {
  it("has the same keys, none blank, in every locale", () => {
    const english = Object.keys(attentionCopy.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(attentionCopy[locale]).sort(), locale).toEqual(english);
      expect(Object.entries(attentionCopy[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
    }
  });

  it("uses the same placeholders for each key in every locale", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [key, english] of Object.entries(attentionCopy.en)) {
      for (const locale of LOCALES) {
        expect(placeholders(attentionCopy[locale][key as keyof typeof attentionCopy.en]), `${locale} ${key}`).toEqual(placeholders(english));
      }
    }
  });
});
