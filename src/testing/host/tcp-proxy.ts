import { connect as tcpConnect, createServer, type Server, type Socket } from "node:net";

/** A TCP proxy on 127.0.0.1 in front of test hosts: each new connection goes to the next of its targets, round-robin, with no stickiness. */
export interface TcpProxy {
  url: string;
  /** Cuts one of the connections it carries, picked with `pick()` in [0, 1); returns how many it carried. */
  cutRandom(pick: () => number): number;
  /** How many connections it has sent to `port`. */
  sent(port: number): number;
  close(): Promise<void>;
}

/** Starts the proxy; `targets` is read at each new connection, so it can change (a host died, the proxy moved on). */
export function startTcpProxy(targets: () => number[]): Promise<TcpProxy> {
  let next = 0;
  const pairs = new Set<[Socket, Socket]>();
  const counts = new Map<number, number>();
  const server: Server = createServer((client) => {
    const ports = targets();
    const port = ports[next++ % ports.length]!;
    counts.set(port, (counts.get(port) ?? 0) + 1);
    const upstream = tcpConnect({ host: "127.0.0.1", port });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        cutRandom(pick) {
          const all = [...pairs];
          const chosen = all[Math.floor(pick() * all.length)];
          chosen?.[0].destroy();
          return all.length;
        },
        sent: (to) => counts.get(to) ?? 0,
        close: () =>
          new Promise<void>((done) => {
            for (const [client, upstream] of pairs) {
              client.destroy();
              upstream.destroy();
            }
            server.close(() => done());
          }),
      });
    });
  });
}
