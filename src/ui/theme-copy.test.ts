import { describe } from "vitest";
import { itKeepsCatalogParity } from "../i18n/catalog-testing";
import { themeCopy } from "./theme-copy";

describe("theme copy", () => {
  itKeepsCatalogParity(themeCopy);
});
