import { describe } from "vitest";
import { itKeepsCatalogParity } from "../../i18n/catalog-testing";
import { sessionsCopy } from "./copy";

describe("sessions copy", () => {
  itKeepsCatalogParity(sessionsCopy);
});
