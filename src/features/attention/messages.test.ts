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
});
