import { lazy, Suspense } from "react";
import { showHiddenCharacters } from "../protocol/hidden-characters";
import "./ansi-text.css";

/** The ANSI parser loads with the first terminal output shown, not with the app. */
const Renderer = lazy(() => import("./ansi-text-renderer"));

/** Terminal output as text with its colours; until the parser has loaded, the text with its escapes removed. */
export function AnsiText({ text, label }: { text: string; label: string }) {
  const loading = (
    <pre className="ansi-text" role="region" aria-label={label} tabIndex={0} aria-busy="true">
      {showHiddenCharacters(stripEscapes(text))}
    </pre>
  );
  return (
    <Suspense fallback={loading}>
      <Renderer text={text} label={label} />
    </Suspense>
  );
}

/** CSI and OSC escape sequences, and any other ESC pair, removed; the characters between them kept. */
export function stripEscapes(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b(\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(\u0007|\u001b\\)|.)/g, "");
}
