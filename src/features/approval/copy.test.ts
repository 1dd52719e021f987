import { describe, expect, it } from "vitest";
import { LOCALES } from "../../i18n/locale";
import { approvalCopy } from "./copy";

describe("approvalCopy", () => {
  it("has exactly the English keys in every locale, none of them blank", () => {
    const english = Object.keys(approvalCopy.en).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(approvalCopy[locale]).sort()).toEqual(english);
      expect(Object.entries(approvalCopy[locale]).filter(([, text]) => text.trim() === "")).toEqual([]);
    }
  });

  it("keeps the same placeholders in every locale", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [key, text] of Object.entries(approvalCopy.en)) {
      expect(placeholders(approvalCopy["zh-CN"][key as keyof typeof approvalCopy.en])).toEqual(placeholders(text));
    }
  });

  it("names the decisions exactly as the protocol's labels in English", () => {
    expect([approvalCopy.en.allowOnce, approvalCopy.en.allowForChat, approvalCopy.en.deny]).toEqual(["Allow once", "Allow for this chat", "Deny"]);
  });
});
