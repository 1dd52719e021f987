import type { MuxConnection, MuxOptions } from "../client/mux";
import type { DownFrame } from "../protocol/schemas";

/** One tab's socket to the fake host. */
interface Link {
  options: MuxOptions;
  status: "connecting" | "online" | "offline" | "closed";
}

/**
 * The fake host's sockets (docs/protocol.md `[mux-replay]`): every tab's link, the greeting each gets on
 * connect, and frames that reach a tab in order and never inside the call that caused them, as over a socket.
 */
export interface FakeLinks {
  connect(options: MuxOptions): MuxConnection;
  /** Sends a frame to every tab that is online when it arrives. */
  broadcast(frame: DownFrame): void;
  /** Every socket drops; tabs that connect meanwhile wait until `comeBack`. */
  goAway(): void;
  /** Every tab reconnects and is greeted again. */
  comeBack(): void;
  /** Closes every socket for good. */
  dispose(): void;
}

/** Links whose greeting (hello, the replay of what is pending, synced) is read anew on every connect. */
export function createFakeLinks(greeting: () => DownFrame[]): FakeLinks {
  const links = new Set<Link>();
  let away = false;

  const deliver = (link: Link, frame: DownFrame) =>
    setTimeout(() => {
      if (link.status === "online") link.options.onFrame(frame);
    }, 0);
  const setStatus = (link: Link, status: Link["status"]) =>
    setTimeout(() => {
      if (link.status === "closed") return;
      link.status = status;
      if (status !== "closed") link.options.onStatus?.(status);
    }, 0);

  function open(link: Link) {
    setStatus(link, "online");
    for (const frame of greeting()) deliver(link, frame);
  }

  return {
    connect(options) {
      const link: Link = { options, status: "connecting" };
      links.add(link);
      options.onStatus?.("connecting");
      if (!away) open(link);
      return {
        get status() {
          return link.status === "closed" ? "offline" : link.status;
        },
        retryNow() {
          if (link.status === "offline" && !away) open(link);
        },
        close() {
          link.status = "closed";
          links.delete(link);
        },
      };
    },
    broadcast(frame) {
      for (const link of links) deliver(link, frame);
    },
    goAway() {
      for (const link of links) setStatus(link, "offline");
      away = true;
    },
    comeBack() {
      away = false;
      for (const link of links) {
        setStatus(link, "connecting");
        open(link);
      }
    },
    dispose() {
      for (const link of links) link.status = "closed";
      links.clear();
    },
  };
}
