import { svgDataUrl, svgWithDot } from "./favicon";
import { titleWithCount } from "./title";

/** Puts a count on the document: `(N)` in front of the title and a dot on the favicon. */
export interface Indicator {
  show(count: number): void;
  dispose(): void;
}

export function createIndicator(): Indicator {
  let count = 0;
  const link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  const plainIcon = link?.getAttribute("href") ?? null;
  let dottedIcon: Promise<string> | null = null;

  const applyTitle = () => {
    const next = titleWithCount(document.title, count);
    if (document.title !== next) document.title = next;
  };
  const observer = new MutationObserver(applyTitle);
  observer.observe(document.head, { childList: true, subtree: true, characterData: true });

  const applyIcon = () => {
    if (!link || plainIcon === null) return;
    if (count === 0) {
      link.setAttribute("href", plainIcon);
      return;
    }
    dottedIcon ??= fetch(link.href)
      .then((response) => {
        if (!response.ok) throw new Error(`the favicon answered ${response.status}`);
        return response.text();
      })
      .then((svg) => svgDataUrl(svgWithDot(svg)));
    dottedIcon.then(
      (href) => {
        if (count > 0) link.setAttribute("href", href);
      },
      (error: unknown) => console.warn("could not draw the attention dot on the favicon", error),
    );
  };

  return {
    show(next) {
      if (next === count) return;
      const dotChanged = (next > 0) !== (count > 0);
      count = next;
      applyTitle();
      if (dotChanged) applyIcon();
    },
    dispose() {
      observer.disconnect();
      count = 0;
      applyTitle();
      applyIcon();
    },
  };
}
