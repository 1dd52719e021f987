import { describe, expect, it } from "vitest";
import { LOCALES, type Catalog } from "../i18n/locale";
import { demoCopy } from "./copy";

const catalogues: Record<string, Catalog> = { demoCopy };

describe("demo copy", () => {
  for (const [name, catalog] of Object.entries(catalogues)) {
    it(`${name} has the same keys, none blank, in every locale`, () => {
      const english = Object.keys(catalog.en).sort();
      for (const locale of LOCALES) {
        expect(Object.keys(catalog[locale]).sort(), locale).toEqual(english);
        expect(Object.entries(catalog[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
      }
    });

    it(`${name} uses the same placeholders for each key in every locale`, () => {
      const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      for (const key of Object.keys(catalog.en)) {
        for (const locale of LOCALES) expect(placeholders(catalog[locale][key]!), `${locale} ${key}`).toEqual(placeholders(catalog.en[key]!));
      }
    });
  }
});
