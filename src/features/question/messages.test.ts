import { describe, expect, it } from "vitest";
import { LOCALES } from "../../i18n/locale";
import { questionMessages } from "./messages";

describe("questionMessages", () => {
  it("has the same keys in every locale", () => {
    const english = Object.keys(questionMessages.en).sort();
    for (const locale of LOCALES) expect(Object.keys(questionMessages[locale]).sort()).toEqual(english);
  });

  it("has no empty message in any locale", () => {
    for (const locale of LOCALES) {
      const empty = Object.entries(questionMessages[locale]).filter(([, text]) => text.trim() === "");
      expect(empty).toEqual([]);
    }
  });

  it("keeps the same placeholders in every locale", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [key, text] of Object.entries(questionMessages.en)) {
      expect(placeholders(questionMessages["zh-CN"][key as keyof typeof questionMessages.en])).toEqual(placeholders(text));
    }
  });
});
