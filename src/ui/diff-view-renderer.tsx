import { structuredPatch } from "diff";
import { useMemo } from "react";
import { showHiddenCharacters } from "../protocol/hidden-characters";

/** Texts longer than this are not diffed in the browser (the diff's cost grows with them); their new text is shown as added. */
export const DIFF_TEXT_CHARS = 400_000;

/** A diff longer than this many lines starts folded. */
export const FOLDED_DIFF_LINES = 40;

export interface DiffViewProps {
  path: string;
  oldText?: string;
  newText: string;
  /** The texts were cut by the host. */
  truncated?: boolean;
  /** Labels: the region's name, the fold's summary for a count of lines, the cut, the empty diff and one not worked out. */
  labels: { region: string; summary: (lines: number) => string; truncated: string; empty: string; uncompared: string };
}

/**
 * Past this many lines added and removed the diff is not worked out, nor past a second of work: its cost grows with the
 * texts' length times the edits, and a rewritten data file would hold every tab that shows it. The new text shows as added.
 */
export const DIFF_MAX_EDITS = 2_000;
const DIFF_MAX_MS = 1_000;

export type DiffLine = { kind: "add" | "remove" | "context" | "hunk"; text: string };

const allAdded = (text: string): DiffLine[] => text.split("\n").map((line) => ({ kind: "add", text: line }));

/**
 * The unified diff of two texts as lines (3 lines of context), by the `diff` library; a missing old text is a new file.
 * `compared` is false when the texts were past the bounds and the new text is given as added.
 */
export function diffLinesOf(oldText: string | undefined, newText: string): { lines: DiffLine[]; compared: boolean } {
  const before = oldText ?? "";
  if (before.length + newText.length > DIFF_TEXT_CHARS) return { lines: allAdded(newText), compared: before === "" };
  const patch = structuredPatch("a", "b", before, newText, undefined, undefined, { context: 3, maxEditLength: DIFF_MAX_EDITS, timeout: DIFF_MAX_MS });
  if (!patch) return { lines: allAdded(newText), compared: false };
  const lines: DiffLine[] = [];
  for (const hunk of patch.hunks) {
    lines.push({ kind: "hunk", text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    for (const line of hunk.lines) {
      if (line.startsWith("\\")) continue;
      lines.push({ kind: line[0] === "+" ? "add" : line[0] === "-" ? "remove" : "context", text: line.slice(1) });
    }
  }
  return { lines, compared: true };
}

/** A readable unified diff: one row per line with its sign, folded when long; text shown as text, hidden characters marked. */
export default function DiffView({ path, oldText, newText, truncated, labels }: DiffViewProps) {
  const { lines, compared } = useMemo(() => diffLinesOf(oldText, newText), [oldText, newText]);
  const changed = lines.filter((line) => line.kind === "add" || line.kind === "remove").length;
  const body = (
    <pre className="diff-view__lines" role="region" aria-label={labels.region} tabIndex={0}>
      {lines.length === 0 ? (
        <span className="diff-view__empty">{labels.empty}</span>
      ) : (
        lines.map((line, index) => (
          <span key={index} className={`diff-view__line diff-view__line--${line.kind}`} data-kind={line.kind}>
            <span className="diff-view__sign" aria-hidden="true">
              {line.kind === "add" ? "+" : line.kind === "remove" ? "-" : line.kind === "hunk" ? "" : " "}
            </span>
            {showHiddenCharacters(line.text)}
            {"\n"}
          </span>
        ))
      )}
    </pre>
  );
  return (
    <div className="diff-view" data-changed={changed}>
      <div className="diff-view__path">
        <bdi>{showHiddenCharacters(path)}</bdi>
      </div>
      {lines.length > FOLDED_DIFF_LINES ? (
        <details className="diff-view__fold">
          <summary>{labels.summary(lines.length)}</summary>
          {body}
        </details>
      ) : (
        body
      )}
      {!compared && <p className="diff-view__truncated">{labels.uncompared}</p>}
      {truncated && <p className="diff-view__truncated">{labels.truncated}</p>}
    </div>
  );
}
