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
}

function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal)
    .map((entry) => (entry.family === "IPv6" ? `[${entry.address}]` : entry.address));
}

/** What listening on `host` means: beyond loopback, never without a token. */
export function exposure(host: string, configuredToken: string | undefined): Exposure {
  if (isLoopbackHost(host)) return { token: configuredToken, generated: false, allowedHosts: [], loginUrl: (port) => `http://127.0.0.1:${port}/` };
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
  };
}

/** What the terminal shows for a generated token: the login link and its QR code, for a phone on the same network. */
export function loginBanner(url: string): string {
  return [
    "",
    "Parley listens beyond this machine, so it requires a token; this one was generated for this run.",
    "Open this link to log in (it sets a login cookie, never the token), or scan the code with a phone on the same network:",
    "",
    `  ${url}`,
    "",
    renderUnicodeCompact(url, { border: 1 }),
    "",
    "Set PARLEY_TOKEN (at least 16 characters) to keep the same token across restarts.",
    "",
  ].join("\n");
}
