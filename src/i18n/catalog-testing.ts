import { expect, it } from "vitest";
import { LOCALES, type Catalog } from "./locale";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

/** Registers the parity tests every UI catalogue must pass: the same keys, none blank, and the same placeholders in every locale. */
export function itKeepsCatalogParity(catalog: Catalog) {
  it("has the same keys, none blank, in every locale", () => {
    const english = Object.keys(catalog.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(catalog[locale]).sort(), locale).toEqual(english);
      expect(Object.entries(catalog[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
    }
  });

  it("uses the same placeholders for each key in every locale", () => {
    for (const [key, english] of Object.entries(catalog.en)) {
      for (const locale of LOCALES) expect(placeholders(catalog[locale][key] ?? ""), `${locale} ${key}`).toEqual(placeholders(english));
    }
  });
}
