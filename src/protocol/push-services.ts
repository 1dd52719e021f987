/**
 * Whether a device's push service lets a push end without a notification shown. Apple's (Safari on macOS, iPhone and
 * iPad) counts each such push against the site and, after a few, removes the site's subscriptions: its devices get no
 * close push (docs/protocol.md, push-close), and their worker shows every request it is sent.
 */
export function takesSilentPushes(endpoint: string): boolean {
  if (!URL.canParse(endpoint)) return true;
  const host = new URL(endpoint).hostname.replace(/\.+$/, "").toLowerCase();
  return host !== "push.apple.com" && !host.endsWith(".push.apple.com");
}
