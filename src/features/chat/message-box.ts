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
  const target = takeoverFirst ? (shown(TAKEOVER) ?? box()) : (box() ?? shown(TAKEOVER));
  target?.focus();
  return target !== undefined && document.activeElement === target;
}
