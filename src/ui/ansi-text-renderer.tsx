import Anser from "anser";
import { useMemo } from "react";
import { showHiddenCharacters } from "../protocol/hidden-characters";

export interface AnsiSpan {
  text: string;
  /** anser's class names (`ansi-green-fg`, `ansi-bold`…), never markup. */
  classes: string[];
}

/** Terminal output with ANSI colours as spans by the `anser` library: colours and bold/italic/underline as classes, every other escape dropped. */
export function ansiSpans(text: string): AnsiSpan[] {
  return Anser.ansiToJson(text, { use_classes: true, remove_empty: true }).map((entry) => ({
    text: entry.content,
    classes: [
      ...(entry.fg ? [`${entry.fg}-fg`] : []),
      ...(entry.bg ? [`${entry.bg}-bg`] : []),
      ...entry.decorations.map((decoration) => `ansi-${decoration}`),
    ],
  }));
}

/** Terminal output as text with its colours; the text is never parsed as HTML. */
export default function AnsiText({ text, label }: { text: string; label: string }) {
  const spans = useMemo(() => ansiSpans(text), [text]);
  return (
    <pre className="ansi-text" role="region" aria-label={label} tabIndex={0}>
      {spans.map((span, index) =>
        span.classes.length === 0 ? (
          <span key={index}>{showHiddenCharacters(span.text)}</span>
        ) : (
          <span key={index} className={span.classes.join(" ")}>
            {showHiddenCharacters(span.text)}
          </span>
        ),
      )}
    </pre>
  );
}
