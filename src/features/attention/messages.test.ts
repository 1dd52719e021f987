import { describe, expect, it } from "vitest";
import { LOCALES } from "../../i18n/locale";
import { attentionMessages } from "./messages";

describe("attention copy", () => {
  it("has the same keys, none blank, in every locale", () => {
    const english = Object.keys(attentionMessages.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(attentionMessages[locale]).sort(), locale).toEqual(english);
      expect(Object.entries(attentionMessages[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
    }
  });

  it("uses the same placeholders for each key in every locale", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [key, english] of Object.entries(attentionMessages.en)) {
      for (const locale of LOCALES) {
        expect(placeholders(attentionMessages[locale][key as keyof typeof attentionMessages.en]), `${locale} ${key}`).toEqual(placeholders(english));
      }
    }
  });
});
