/** The text of a hast-shaped node (markdown's tree, the highlighter's): its text nodes' values, in order. */
export function textOf(node: { type: string; value?: string; children?: readonly unknown[] }): string {
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map((child) => textOf(child as Parameters<typeof textOf>[0])).join("");
}
