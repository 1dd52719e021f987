import { describe, expect, it } from "vitest";
import { LOCALES, type Catalog } from "../i18n/locale";
import { demoMessages } from "./messages";

const catalogues: Record<string, Catalog> = { demoMessages };

describe("demo copy", () => {
  for (const [name, catalog] of Object.entries(catalogues)) {
    it(`${name} has the same keys, none blank, in every locale`, () => {
      const english = Object.keys(catalog.en).sort();
      for (const locale of LOCALES) {
        expect(Object.keys(catalog[locale]).sort(), locale).toEqual(english);
        expect(Object.entries(catalog[locale]).filter(([, text]) => text.trim() === ""), locale).toEqual([]);
      }
    });
  }
});
