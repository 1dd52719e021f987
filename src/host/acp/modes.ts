import { NEVER_ASKING_MODES } from "../../protocol/acp-modes";

/**
 * The mode a chat starts in when it chose none (or one the agent no longer offers): `default`, else the agent's own start
 * mode unless it acts without asking, else the first mode it offers that asks; null when it offers none that asks.
 */
export function askingMode(offered: readonly string[], start: string | null): string | null {
  if (offered.includes("default")) return "default";
  if (start !== null && offered.includes(start) && !NEVER_ASKING_MODES.has(start)) return start;
  return offered.find((mode) => !NEVER_ASKING_MODES.has(mode)) ?? null;
}
