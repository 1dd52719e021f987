import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Addresses no push service has: this machine ("this host" and loopback), private networks, shared address space,
 * link-local (where clouds serve their metadata), benchmarking, multicast and reserved, in IPv4, IPv6 and IPv4 mapped
 * into IPv6. A push endpoint naming one is refused however it is written or resolved (docs/protocol.md, push-endpoint).
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
  // The same addresses mapped into IPv6, and reached through the well-known NAT64 prefix (a public IPv4 address stays reachable through it).
  NOT_PUBLIC.addSubnet(`::ffff:${network}`, 96 + prefix, "ipv6");
  NOT_PUBLIC.addSubnet(`64:ff9b::${network}`, 96 + prefix, "ipv6");
}
for (const [network, prefix] of [
  // Unspecified, loopback and IPv4-compatible (deprecated) in one.
  ["::", 96],
  ["64:ff9b:1::", 48],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address (IPv6 with or without brackets) is one no push service has. */
export function notPublicAddress(address: string): boolean {
  const bare = address.startsWith("[") ? address.slice(1, -1) : address;
  const family = isIP(bare);
  return family !== 0 && NOT_PUBLIC.check(bare, family === 6 ? "ipv6" : "ipv4");
}

/** Whether a URL's host names no push service: `localhost` and its subdomains (with or without the final dot), or an address that is not public. */
export function namesNoPushService(hostname: string): boolean {
  const host = hostname.replace(/\.+$/, "");
  return host === "localhost" || host.endsWith(".localhost") || notPublicAddress(host);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** `dns.lookup` as `http.request` calls it: with `all: true` it answers every address (Node's happy eyeballs), else one. */
export type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * `dns.lookup` that fails a name resolving to any address no push service has, so a push never reaches this machine or
 * its network through a name (the endpoint's written form is checked before, by `namesNoPushService`).
 */
export function publicOnlyLookup(lookup: Lookup = dnsLookup as unknown as Lookup): Lookup {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
      const refused = addresses.find(notPublicAddress);
      if (refused === undefined) return callback(null, address, family);
      callback(Object.assign(new Error(`${hostname} resolves to ${refused}, which is no push service's address`), { code: "ENOTPUBLIC" }), address, family);
    });
}
