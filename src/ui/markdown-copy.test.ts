import { describe } from "vitest";
import { itKeepsCatalogParity } from "../i18n/catalog-testing";
import { markdownCopy } from "./markdown-copy";

describe("markdown copy", () => {
  itKeepsCatalogParity(markdownCopy);
});
