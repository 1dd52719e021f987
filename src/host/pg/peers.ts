import { hostname } from "node:os";
import type { Logger } from "../log";
import type { PgStore } from "./store";

/** Where the hosts of a cluster reach each other: each records its URL and machine beside its lease. */
export interface Peers {
  /** Records where the other hosts reach this one (its URL once it listens) and the machine it runs on. */
  advertise(url: URL): Promise<void>;
  /**
   * Where another live host is reached; null when `instance` is this host, holds no live lease, or advertised a
   * loopback address from another machine (logged: it needs PARLEY_PEER_URL).
   */
  peerUrl(instance: string): Promise<URL | null>;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function createPeers(store: PgStore, instance: string, log: Logger): Peers {
  return {
    async advertise(url) {
      await store.query("UPDATE hosts SET url = $2, machine = $3 WHERE instance = $1", [instance, url.href, hostname()], false);
    },
    async peerUrl(other) {
      if (other === instance) return null;
      const row = await store.query<{ url: string; machine: string | null }>("SELECT url, machine FROM hosts WHERE instance = $1 AND lease_until > now()", [other], false);
      const found = row.rows[0];
      if (!found || !URL.canParse(found.url)) return null;
      const url = new URL(found.url);
      if (found.machine !== hostname() && LOOPBACK_HOSTS.has(url.hostname)) {
        log({ event: "cluster/peer-unreachable", instance: other, url: found.url, reason: "a loopback address on another machine: set PARLEY_PEER_URL on that host" });
        return null;
      }
      return url;
    },
  };
}
