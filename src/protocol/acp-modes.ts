/**
 * Modes in which an agent acts without asking, as Qwen Code, Claude Code, Gemini CLI and Codex name them: the app asks
 * before it switches to one, and the host never starts a chat in one (docs/protocol.md, acp-modes).
 */
export const NEVER_ASKING_MODES: ReadonlySet<string> = new Set(["auto", "yolo", "bypassPermissions", "auto-edit", "acceptEdits", "autoEdit", "full-access", "agent-full-access"]);
