import { describe, expect, it } from "vitest";
import { LOCALES } from "../../i18n/locale";
import { questionCopy } from "./copy";

describe("questionCopy", () => {
  it("has the same keys in every locale", () => {
    const english = Object.keys(questionCopy.en).sort();
    for (const locale of LOCALES) expect(Object.keys(questionCopy[locale]).sort()).toEqual(english);
  });

  it("has no empty message in any locale", () => {
    for (const locale of LOCALES) {
      const empty = Object.entries(questionCopy[locale]).filter(([, text]) => text.trim() === "");
      expect(empty).toEqual([]);
    }
  });

  it("keeps the same placeholders in every locale", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [key, text] of Object.entries(questionCopy.en)) {
      expect(placeholders(questionCopy["zh-CN"][key as keyof typeof questionCopy.en])).toEqual(placeholders(text));
    }
  });
});
