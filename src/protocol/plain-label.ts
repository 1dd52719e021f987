/** Bidi embedding, override and isolate controls and marks: a title or an agent's label never carries them (docs/protocol.md). */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * Outside words shown on one line beside the app's own (a chat's title, an agent's command or mode, a server's error):
 * bidi controls removed, so they cannot reorder what sits beside them, and whitespace collapsed.
 */
export function plainLabel(text: string): string {
  return text.replace(BIDI_CONTROLS, "").replace(/\s+/g, " ").trim();
}

/**
 * A plain label of at most `chars` characters (code points, so none is cut in half): a longer one keeps its first
 * `chars - 1` and ends in `…`.
 */
export function clipLabel(text: string, chars: number): string {
  const label = plainLabel(text);
  const points = [...label];
  return points.length <= chars ? label : `${points.slice(0, chars - 1).join("").trimEnd()}…`;
}
