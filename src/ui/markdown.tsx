import { createElement, useEffect, useState, type ComponentType } from "react";
import { loadOnce } from "../client/load-once";
import { showHiddenCharacters } from "../protocol/hidden-characters";
import "./markdown.css";

/** How long after a failed load of the renderer the next attempt is made, in milliseconds. */
const RETRY_LOAD_MS = 3000;

type Renderer = ComponentType<{ text: string }>;

/** The renderer's chunk; a failed load (the host went away) is forgotten, so the next attempt asks again. */
const rendererChunk = loadOnce(() => import("./markdown-renderer"));

function useRenderer(): Renderer | null {
  const [loaded, setLoaded] = useState<Renderer | null>(() => rendererChunk.loaded()?.default ?? null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    rendererChunk.load().then(
      (module) => {
        if (live) setLoaded(() => module.default);
      },
      (error: unknown) => {
        console.warn("could not load the markdown renderer; showing plain text for now", error);
        if (live) retry = setTimeout(() => setAttempt((count) => count + 1), RETRY_LOAD_MS);
      },
    );
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [loaded, attempt]);
  return loaded;
}

/**
 * Model-written GitHub-flavoured markdown, sanitised: raw HTML shows as text, only http(s)/mailto
 * links (opened in a new tab), images shown as their alt text and URL, never fetched, and hidden characters shown as
 * `⟨U+XXXX⟩` markers in prose and code alike, so a bidi control cannot reorder what the reader sees. The renderer
 * loads lazily; until then (or while it cannot load) the text shows plain. `wrap`: code blocks and
 * table cells wrap their lines instead of scrolling sideways, for text that must be read whole.
 */
export function Markdown({ text, className, wrap = false }: { text: string; className?: string; wrap?: boolean }) {
  const Rendered = useRenderer();
  const classes = ["markdown", wrap ? "markdown--wrap" : null, className].filter(Boolean).join(" ");
  const shown = showHiddenCharacters(text);
  return (
    <div className={classes} dir="auto">
      {Rendered ? (
        createElement(Rendered, { text: shown })
      ) : (
        <div className="markdown__plain" dir="auto">
          {shown}
        </div>
      )}
    </div>
  );
}
