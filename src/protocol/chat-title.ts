/** The title the host gives a chat until it is named (docs/protocol.md, titles-auto). */
export const DEFAULT_TITLE = "New chat";

/** A chat's title as a tab shows it: its own; `fresh` (the tab's words for a new chat) while it has the host's default; `untitled` for none. */
export function shownTitle(title: string, untitled: string, fresh = untitled): string {
  const own = title.trim();
  return own === DEFAULT_TITLE ? fresh : own || untitled;
}
