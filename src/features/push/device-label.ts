/** A device's name as the settings list it, from its user agent: "Pixel 8 · Chrome", "iPhone · Safari", "Linux · Firefox". */
export function deviceLabel(userAgent: string): string {
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
  const model = android?.[1]?.trim();
  const device =
    model && model !== "K" && model !== "wv"
      ? model
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
  return `${device} · ${browser}`;
}
