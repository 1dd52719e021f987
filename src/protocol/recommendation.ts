const RECOMMENDED_SUFFIX = /\s*[(（]\s*(?:recommended|推荐)\s*[)）]\s*$/iu;

/** A label split into what the user reads and whether the model recommended it. */
export interface ParsedLabel {
  display: string;
  recommended: boolean;
}

/** Reads a ` (Recommended)` / `（推荐）` suffix; the full label is still what is sent back. */
export function parseRecommendation(label: string): ParsedLabel {
  const match = RECOMMENDED_SUFFIX.exec(label);
  if (!match) return { display: label, recommended: false };
  const display = label.slice(0, match.index);
  if (display.trim() === "") return { display: label, recommended: false };
  return { display, recommended: true };
}
