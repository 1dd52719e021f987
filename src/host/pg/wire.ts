import type { ServerResponse } from "node:http";
import type { SessionState } from "../../protocol/schemas";
import type { Chat } from "../sessions/service";
import type { Downlink } from "../downlink/downlink";
import { errorText, type Logger } from "../log";
import type { FrameBus } from "../downlink/frame-bus";
import type { Cluster } from "./cluster";

/** What a cluster host knows of sessions whose turns run on other hosts: their last published state. */
export interface RemoteSessions {
  stateOf(sessionId: string): SessionState | undefined;
  /**
   * Learns which sessions' turns other hosts hold (live ones, and dead ones not yet taken over), so a host that just
   * started shows them running until they end or are taken over.
   */
  load(): Promise<void>;
}

/**
 * Joins the host's parts to the cluster: its own frames go out to every host, and every host's frames,
 * its own once written, go to its sockets; they are closed when it turns unhealthy so browsers move to a healthy host.
 */
export function wireCluster(cluster: Cluster, parts: { bus: FrameBus; downlink: Downlink; log: Logger }): RemoteSessions {
  const states = new Map<string, SessionState>();
  /** Sessions a frame has told this host about since it started: newer than what load() reads. */
  const told = new Set<string>();
  let loaded = false;
  parts.bus.subscribe((frame) => cluster.publish(frame));
  /** Sessions a frame told about while a recovery reads the turns rows; null when none is reading. */
  let recovering: Set<string> | null = null;
  cluster.onFrame((frame, owner) => {
    if (recovering && frame.type === "session/upserted") recovering.add(frame.session.id);
    else if (recovering && frame.type === "session/deleted") recovering.add(frame.sessionId);
    if (!loaded && frame.type === "session/upserted") told.add(frame.session.id);
    else if (!loaded && frame.type === "session/deleted") told.add(frame.sessionId);
    if (frame.type === "session/upserted" && owner !== cluster.instance) {
      if (frame.session.state === "idle") states.delete(frame.session.id);
      else states.set(frame.session.id, frame.session.state);
    } else if (frame.type === "session/deleted") states.delete(frame.sessionId);
    else if (frame.type === "session/upserted") states.delete(frame.session.id);
    parts.downlink.broadcast(frame);
  });
  cluster.onUnhealthy((state) => parts.downlink.disconnectAll(state === "lost" ? "this host left the cluster" : "this host lost its database"));
  // Back from an outage: a turn that ended elsewhere meanwhile may have told no host, so which sessions run elsewhere is
  // read again from their turns rows (a host back before this one has given its ended turns' rows back by then; one back
  // after tells every host when it does, in reconcile()).
  cluster.onRecovered(async () => {
    const toldNow = new Set<string>();
    recovering = toldNow;
    let running: string[];
    try {
      running = await cluster.turnsElsewhere();
    } finally {
      recovering = null;
    }
    // What a frame told while the rows were read is newer than them; every other session's state is read again: running
    // where a turns row of another host says so, waiting where one of its questions does (the view was reloaded).
    for (const sessionId of [...states.keys()]) if (!toldNow.has(sessionId)) states.delete(sessionId);
    for (const sessionId of running) if (!toldNow.has(sessionId)) states.set(sessionId, "running");
    for (const question of cluster.pending()) {
      const { sessionId } = question.frame;
      if (question.owner !== cluster.instance && !toldNow.has(sessionId)) states.set(sessionId, "waiting");
    }
  });
  return {
    stateOf: (sessionId) => states.get(sessionId),
    async load() {
      for (const sessionId of await cluster.turnsElsewhere()) if (!told.has(sessionId)) states.set(sessionId, "running");
      told.clear();
      loaded = true;
    },
  };
}

/**
 * The chat as the routes see it in a cluster: Stop of a session whose turn runs on another host is
 * sent to every host, and the one running it aborts it (docs/protocol.md, cluster-stop).
 */
export function clusterChat(chat: Chat, cluster: Cluster, remote: RemoteSessions, log: Logger): Chat {
  /** Sessions whose `turns` row this host is taking or has just taken, before the chat counts the turn as its own. */
  const claiming = new Set<string>();
  cluster.setOwnTurns(() => [...new Set([...claiming, ...chat.turnSessions()])]);
  cluster.onStop((sessionId) => {
    chat.abort(sessionId).catch((error: unknown) => log({ event: "cluster/stop-failed", sessionId, error: error instanceof Error ? error.message : String(error) }));
  });
  // A chat another host deleted: what of it runs here stops, and its agent session here is let go (docs/protocol.md, cluster-delete).
  cluster.onFrame((frame, owner) => {
    if (frame.type !== "session/deleted" || owner === cluster.instance) return;
    chat.deletedElsewhere(frame.sessionId).catch((error: unknown) => log({ event: "cluster/delete-failed", sessionId: frame.sessionId, error: error instanceof Error ? error.message : String(error) }));
  });
  return {
    ...chat,
    /** One turn per session cluster-wide: the `turns` row is taken first (docs/protocol.md, cluster-turns). */
    async postMessage(sessionId, text) {
      if (claiming.has(sessionId)) return { ok: false, reason: "turn-running" };
      claiming.add(sessionId);
      try {
        if (!(await cluster.claimTurn(sessionId))) return (await chat.getSession(sessionId)) ? { ok: false, reason: "turn-running" } : { ok: false, reason: "not-found" };
        // Not taken (or its write failed), and no turn of it runs here (another host's does, as its frames said): the row is
        // not this host's to keep. One that cannot be given back now is freed when this host recovers (reconcile).
        const release = () => (chat.turnSessions().includes(sessionId) ? undefined : cluster.releaseTurn(sessionId));
        let result: Awaited<ReturnType<Chat["postMessage"]>>;
        try {
          result = await chat.postMessage(sessionId, text);
        } catch (error) {
          await release()?.catch((released: unknown) => log({ event: "cluster/release-failed", sessionId, error: errorText(released) }));
          throw error;
        }
        if (!result.ok) await release();
        return result;
      } finally {
        claiming.delete(sessionId);
      }
    },
    async abort(sessionId) {
      const local = await chat.abort(sessionId);
      if (local !== false || remote.stateOf(sessionId) === undefined) return local;
      await cluster.sendStop(sessionId);
      return true;
    },
  };
}

/**
 * In a cluster a host's own frames reach its sockets once written (docs/protocol.md, cluster-fanout): the
 * response to a change waits for the frames published so far, so it never overtakes the frames it caused,
 * as on a single host. A failed write does not hold the response; it is reported where it failed.
 */
export function endAfterFrames(response: ServerResponse, flush: () => Promise<void>): void {
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  const held = (...args: unknown[]) => {
    const finish = () => void end(...args);
    flush().then(finish, finish);
    return response;
  };
  response.end = held as ServerResponse["end"];
}
