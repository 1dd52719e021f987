import { DEFAULT_TITLE } from "../../protocol/chat-title";
import { clipLabel, plainLabel } from "../../protocol/plain-label";

/** A chat's title: from its first message, the first question, plan or MCP tool call its agent makes, or a rename. */
export { DEFAULT_TITLE };
const TITLE_CHARS = 60;

/** Scripted-model commands whose text is arguments, not words: the chat is titled from the call they make instead. */
export const COMMAND_WITH_ARGUMENTS = /^\/(?:ask|plan|tool)\s/;

/** A title as the sidebar and the header show it: bidi controls removed (so no title can reorder what sits beside it), whitespace collapsed. */
export const cleanTitle = plainLabel;

/** Scripted-model commands whose text is words to title by: `/echo <text>` and `/stream <pauses> <text>` are titled by the text. */
const COMMAND_BEFORE_WORDS = /^\s*\/(?:echo|stream\s+\S+)(?=\s|$)/;

/** A title from the first non-empty line of a message, without a leading /echo or /stream command: bidi controls removed, whitespace collapsed, at most 60 characters. */
export function titleFrom(text: string): string {
  const words = text.replace(COMMAND_BEFORE_WORDS, "");
  const line = words.split("\n").find((part) => cleanTitle(part) !== "") ?? "";
  const title = clipLabel(line, TITLE_CHARS);
  return title === "" ? DEFAULT_TITLE : title;
}

/** A plan line's markdown markers (headings, quotes, list items, each followed by a space), not digits of its words ("3D printer"). */
const PLAN_LINE_MARKERS = /^\s*(?:(?:#{1,6}|>|[-*+]|\d+[.)])(?:\s+|$))*/;

/** An MCP server's tool as the model calls it: `mcp__<server>__<tool>`. */
const MCP_TOOL_NAME = /^mcp__(.+?)__(.+)$/;

/**
 * A chat title from the first question's header (else its text), a plan's first line, or an MCP server's tool as
 * `<tool> · <server>`; null when the arguments name none.
 */
export function titleFromToolArgs(name: string, args: unknown): string | null {
  const mcp = MCP_TOOL_NAME.exec(name);
  if (mcp) return titleFrom(`${mcp[2]} · ${mcp[1]}`);
  const record = plainObject(args);
  if (name === "ask_user_question" && Array.isArray(record.questions)) {
    const first = plainObject(record.questions[0]);
    const text = [first.header, first.question].find((value): value is string => typeof value === "string" && value.trim() !== "");
    return text === undefined ? null : titleFrom(text);
  }
  if (name === "present_plan" && typeof record.plan === "string") {
    const line = record.plan.split("\n").map((part) => part.replace(PLAN_LINE_MARKERS, "").trim()).find(Boolean);
    return line === undefined ? null : titleFrom(line);
  }
  return null;
}

export function plainObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
