/** A red dot in the icon's top-right corner; the icon's viewBox is 32 units square. */
const DOT = '<circle cx="25" cy="7" r="6.5" fill="#d92d20" stroke="#ffffff" stroke-width="2"/>';

/** The SVG icon with the attention dot drawn on top of it. */
export function svgWithDot(svg: string): string {
  const end = svg.lastIndexOf("</svg>");
  if (end === -1) throw new Error("the favicon is not an SVG document");
  return `${svg.slice(0, end)}${DOT}${svg.slice(end)}`;
}

export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
