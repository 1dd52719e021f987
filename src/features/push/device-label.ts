/**
 * A device's name as the settings list it, from its user agent: "Pixel 8 · Chrome", "iPhone · Safari", "Linux · Firefox".
 * `model` is the phone's model as the browser's client hints tell it, for a user agent that no longer names it (Chrome
 * on Android says "K").
 */
export function deviceLabel(userAgent: string, model?: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /SamsungBrowser\//.test(userAgent)
        ? "Samsung Internet"
        : /Chromium\//.test(userAgent)
          ? "Chromium"
          : /Chrome\//.test(userAgent)
            ? "Chrome"
            : /Safari\//.test(userAgent)
              ? "Safari"
              : "Browser";
  const android = /Android [^;)]*;\s*([^;)]+?)(?:\s+Build\/[^;)]*)?\)/.exec(userAgent);
  const named = android?.[1]?.trim();
  const hinted = model?.trim();
  const device =
    named && named !== "K" && named !== "wv"
      ? named
      : hinted
        ? hinted
        : /Android/.test(userAgent)
        ? "Android"
        : /iPhone/.test(userAgent)
          ? "iPhone"
          : /iPad/.test(userAgent)
            ? "iPad"
            : /Macintosh/.test(userAgent)
              ? "Mac"
              : /Windows/.test(userAgent)
                ? "Windows"
                : /CrOS/.test(userAgent)
                  ? "ChromeOS"
                  : /Linux/.test(userAgent)
                    ? "Linux"
                    : "Device";
  // The host keeps labels of up to 100 characters: a long model is cut so the label always fits.
  return `${device.slice(0, 80)} · ${browser}`;
}

interface UserAgentData {
  getHighEntropyValues(hints: string[]): Promise<{ model?: string }>;
}

/** The device's model from the browser's client hints (Chromium's), or undefined where it offers none or refuses. */
export async function hintedModel(): Promise<string | undefined> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (!data) return undefined;
  try {
    return (await data.getHighEntropyValues(["model"])).model;
  } catch {
    // A browser that refuses the hint names no model: the label comes from the user agent alone.
    return undefined;
  }
}
