import { randomBytes } from "node:crypto";
import { hostname, networkInterfaces } from "node:os";
import { renderUnicodeCompact } from "uqr";

const GENERATED_TOKEN_BYTES = 24;

/** Whether a listen address only reaches this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

export interface Exposure {
  /** The token the host must require: the configured one, or one generated for a host listening beyond loopback. */
  token: string | undefined;
  generated: boolean;
  /** Names a phone on the network will send as Host: this machine's addresses and name (empty on loopback). */
  allowedHosts: string[];
  /** The login link a person opens (with the token) once the port is known. */
  loginUrl(port: number): string;
  /** Whether the terminal shows the login link and its QR code: for a generated token, or for a public URL a phone is to scan. */
  showLogin: boolean;
}

/** PARLEY_PUBLIC_URL as a URL: `https:` only (a phone gets an installable app and notifications only in a secure context), no path beyond `/`. */
export function publicUrlOf(value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url === null || url.protocol !== "https:" || url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    throw new Error(`PARLEY_PUBLIC_URL=${value} is not an https:// origin such as https://parley.example.net`);
  }
  return url;
}

function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal)
    .map((entry) => (entry.family === "IPv6" ? `[${entry.address}]` : entry.address));
}

/**
 * What listening on `host` means: beyond loopback, never without a token. A public URL (PARLEY_PUBLIC_URL: an https
 * proxy or tunnel in front of the host) is beyond loopback whatever the host listens on: its name is allowed as `Host`,
 * and the login link and QR code use it.
 */
export function exposure(host: string, configuredToken: string | undefined, publicUrl?: URL): Exposure {
  if (publicUrl !== undefined) {
    const token = configuredToken ?? randomBytes(GENERATED_TOKEN_BYTES).toString("base64url");
    const local = isLoopbackHost(host) ? { allowedHosts: [] as string[] } : exposure(host, token);
    return {
      token,
      generated: configuredToken === undefined,
      allowedHosts: [...new Set([...local.allowedHosts, publicUrl.hostname.toLowerCase()])],
      loginUrl: () => `${publicUrl.origin}/?token=${encodeURIComponent(token)}`,
      showLogin: true,
    };
  }
  if (isLoopbackHost(host)) return { token: configuredToken, generated: false, allowedHosts: [], loginUrl: (port) => `http://127.0.0.1:${port}/`, showLogin: false };
  const token = configuredToken ?? randomBytes(GENERATED_TOKEN_BYTES).toString("base64url");
  const wildcard = host === "0.0.0.0" || host === "::" || host === "[::]";
  const addresses = externalAddresses();
  const names = [...new Set([...(wildcard ? addresses : [host]), hostname().toLowerCase()])];
  const shown = wildcard ? (addresses.find((address) => !address.startsWith("[")) ?? addresses[0] ?? hostname()) : host;
  return {
    token,
    generated: configuredToken === undefined,
    allowedHosts: names,
    loginUrl: (port) => `http://${shown}:${port}/?token=${encodeURIComponent(token)}`,
    showLogin: configuredToken === undefined,
  };
}

/** What the terminal shows for a generated token: the login link and its QR code, for a phone on the same network. */
export function loginBanner(url: string, generated = true): string {
  const secure = url.startsWith("https://");
  return [
    "",
    generated ? "Parley listens beyond this machine, so it requires a token; this one was generated for this run." : "Parley listens beyond this machine and requires its token.",
    secure
      ? "Open this link to log in (it sets a login cookie, never the token), or scan the code with your phone, then tap Install and notify me:"
      : "Open this link to log in (it sets a login cookie, never the token), or scan the code with a phone on the same network:",
    "",
    `  ${url}`,
    "",
    renderUnicodeCompact(url, { border: 1 }),
    "",
    ...(generated ? ["Set PARLEY_TOKEN (at least 16 characters) to keep the same token across restarts (a new token ends every login and its notifications)."] : []),
    ...(secure ? [] : ["A phone gets notifications and can install Parley only over https: set PARLEY_PUBLIC_URL to the https address that reaches this host (README, On your phone)."]),
    "",
  ].join("\n");
}
