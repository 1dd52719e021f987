/** Bidi embedding, override and isolate controls and marks: a title or an agent's label never carries them (docs/protocol.md). */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * Outside words shown on one line beside the app's own (a chat's title, an agent's command or mode, a server's error):
 * bidi controls removed, so they cannot reorder what sits beside them, and whitespace collapsed.
 */
export function plainLabel(text: string): string {
  return text.replace(BIDI_CONTROLS, "").replace(/\s+/g, " ").trim();
}
