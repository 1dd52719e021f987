/** An element's text as a screen reader reads it: without what is only shown (`aria-hidden`, such as a badged chat row's time). */
export function readText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll("[aria-hidden=true]")) hidden.remove();
  return copy.textContent ?? "";
}
