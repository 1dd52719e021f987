/** A takeover's place to land: a card's heading, else the question panel's first button. */
const TAKEOVER = "[data-question-panel] h2, [data-approval-card] h2, [data-question-panel] button";

/**
 * Focuses what the conversation's footer shows for typing or answering: the message box, or what holds its place (a
 * question panel, a notice, an approval card). `takeoverFirst` prefers the takeover when both show (a panel waiting
 * beside a box being typed in), as the skip link does; otherwise the box comes first. Returns whether anything took focus.
 */
export function focusMessageBox(footer: ParentNode | null, takeoverFirst: boolean): boolean {
  const shown = (selector: string) => [...(footer?.querySelectorAll<HTMLElement>(selector) ?? [])].find((element) => !element.closest("[hidden]"));
  const box = () => shown(".composer-slot__composer textarea");
  // An outside agent's chat has no box: its notice holds the place.
  const target = (takeoverFirst ? (shown(TAKEOVER) ?? box()) : (box() ?? shown(TAKEOVER))) ?? shown(".agent-notice");
  target?.focus();
  return target !== undefined && document.activeElement === target;
}

/** Sent on the message box when focus was handed to it because the control that had it went away (Stop, Retry, Retry now). */
export const FOCUS_HANDED_EVENT = "parley:focus-handed";

/**
 * Hands the keyboard to the message box (else to what holds its place) after the control that held it went away, and tells
 * the box so: a draft in it is then not sent by a second Enter meant for that control (composer-slot's Enter guard).
 */
export function handFocusToMessageBox(footer: HTMLElement | null): void {
  if (!focusMessageBox(footer, false)) footer?.focus();
  document.activeElement?.dispatchEvent(new Event(FOCUS_HANDED_EVENT, { bubbles: true }));
}
