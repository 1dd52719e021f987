import { common, createLowlight } from "lowlight";
import { textOf } from "./hast-text";

/** Syntax highlighting for code blocks; this module is loaded only when a code block is shown. */
const lowlight = createLowlight(common);

/** A node of lowlight's result tree: only spans with classes and text. */
export type HighlightNode = { type: "text"; value: string } | { type: "element"; className: string; children: HighlightNode[] };

type HastNode = { type: string; value?: string; properties?: { className?: unknown }; children?: HastNode[] };

function convert(nodes: readonly HastNode[]): HighlightNode[] {
  const out: HighlightNode[] = [];
  for (const node of nodes) {
    if (node.type === "text") out.push({ type: "text", value: node.value ?? "" });
    else if (node.type === "element") {
      const className = Array.isArray(node.properties?.className) ? node.properties.className.filter((name) => typeof name === "string").join(" ") : "";
      out.push({ type: "element", className, children: convert(node.children ?? []) });
    }
  }
  return out;
}

/**
 * Highlights code in a named language (auto-detected among common ones when the name is unknown or missing). When the
 * result does not read as the code (auto-detection that recognises no language returns nothing at all), the code comes
 * back as one plain text node: a block is never shown with less than its text.
 */
export function highlight(code: string, language: string | null): HighlightNode[] {
  const tree = language !== null && lowlight.registered(language) ? lowlight.highlight(language, code) : lowlight.highlightAuto(code);
  return textOf(tree) === code ? convert(tree.children as HastNode[]) : [{ type: "text", value: code }];
}
