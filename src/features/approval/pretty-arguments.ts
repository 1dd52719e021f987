/**
 * A call's arguments as the approval card shows them: JSON indented by two spaces, whole. Text that
 * is not JSON is shown exactly as sent, so nothing the tool will receive is hidden.
 */
export function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Whether the arguments say nothing: empty text, `{}` or `null`. */
export function isEmptyArguments(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === "" || trimmed === "{}" || trimmed === "null";
}
