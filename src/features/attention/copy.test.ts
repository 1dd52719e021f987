import { describe } from "vitest";
import { itKeepsCatalogParity } from "../../i18n/catalog-testing";
import { attentionCopy } from "./copy";

describe("attention copy", () => {
  itKeepsCatalogParity(attentionCopy);
});
