import { describe, expect, it } from "vitest";
import { LOCALES } from "../i18n/locale";
import { chatCopy } from "../features/chat/copy";
import { keyboardHelpCopy } from "../features/chat/keyboard-help-copy";
import { mcpToolCopy } from "../features/chat/mcp-tool-copy";
import { sessionsCopy } from "../features/sessions/copy";
import { appCopy } from "./copy";

const catalogues = { app: appCopy, chat: chatCopy, keyboardHelp: keyboardHelpCopy, mcpTool: mcpToolCopy, sessions: sessionsCopy };

describe("UI copy catalogues", () => {
  for (const [name, catalogue] of Object.entries(catalogues)) {
    it(`${name}: every locale has exactly the English keys, none of them blank`, () => {
      const english = Object.keys(catalogue.en).sort();
      for (const locale of LOCALES) {
        expect(Object.keys(catalogue[locale]).sort()).toEqual(english);
        for (const key of english) expect((catalogue[locale] as Record<string, string>)[key]!.trim()).not.toBe("");
      }
    });

    it(`${name}: every locale uses the same placeholders for each key`, () => {
      const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      for (const key of Object.keys(catalogue.en)) {
        const english = placeholders((catalogue.en as Record<string, string>)[key]!);
        for (const locale of LOCALES) expect(placeholders((catalogue[locale] as Record<string, string>)[key]!)).toEqual(english);
      }
    });
  }

  it("names the accessible controls exactly as docs/architecture.md (Accessible names) lists them in English", () => {
    expect(chatCopy.en.messageLabel).toBe("Message");
    expect(chatCopy.en.send).toBe("Send");
    expect(chatCopy.en.stop).toBe("Stop");
    expect(sessionsCopy.en.newChat).toBe("New chat");
    expect(sessionsCopy.en.waitingBadge).toBe("Waiting for answer");
    expect(sessionsCopy.en.planBadge).toBe("Plan awaiting review");
    expect(appCopy.en.sessionsToggle).toBe("Sessions");
  });
});
