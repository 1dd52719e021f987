const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** Whether a model-written URL may become a live link: absolute http(s) or mailto only. */
export function isSafeLinkUrl(url: string | undefined): url is string {
  if (!url) return false;
  try {
    return SAFE_PROTOCOLS.has(new URL(url).protocol);
  } catch {
    return false;
  }
}
