import { DownFrame, type QuestionRequestedFrame, type ToolCall } from "../../protocol/schemas";
import type { GivenAnswer } from "../pending/pending-table";
import type { AnswerEffect } from "../tools/registry";
import { errorText, type Logger } from "../log";
import { readRule, type AnswerRule } from "../pending/answer-rule";
import { adoptExpired } from "./adopt";
import { createOrphanSweep } from "./orphans";
import { notePayload, notifyAll, openEnvelope, startListener, sweepLargeFrames, type Envelope } from "./channel";
import { createOutbox, serial, type Outbox } from "./outbox";
import { createClaims, type Claims } from "./claims";
import { createClusterView, type ClusterView } from "./cluster-view";
import { createLease } from "./lease";
import { createPeers, type Peers } from "./peers";
import { reconcile, type Reconciliation } from "./reconcile";
import type { PgStore } from "./store";

/**
 * Hosts sharing one Postgres database are a cluster (docs/architecture.md, Several hosts):
 * leases say who is alive, LISTEN/NOTIFY carries every frame to every host in its owner's order,
 * and a live host adopts the work of one whose lease expired.
 */
export interface Cluster extends Claims, Peers, Pick<ClusterView, "pending" | "question" | "fetchPending"> {
  /** The cluster's id: `hello.hostId` and health's `hostId`. */
  readonly id: string;
  /** This host process. */
  readonly instance: string;
  /** Live hosts by their leases, as of the last renewal. */
  instances(): number;
  /** `ok`; `disconnected` while the database cannot be reached; `lost` once this host's lease is gone for good. */
  state(): ClusterState;
  /** Why answers are refused now, or null when they are accepted. */
  refusal(): string | null;
  /** Sends a frame this host produced to every host, after the one before it. */
  publish(frame: DownFrame): void;
  /**
   * Adopts the work of every host whose lease expired, then at each renewal, with `settle`: how a tool's result follows from
   * the answer a dead host's question got (docs/protocol.md, cluster-adopt; null: the row is stopped like an unanswered
   * one). Called once the host's parts that act on an adopted question are wired (its push service, its sockets): before,
   * a renewal adopts nothing.
   */
  beginAdopting(settle: (tool: ToolCall, given: GivenAnswer) => AnswerEffect | null): Promise<void>;
  /**
   * Every frame of the cluster, in each owner's order: another host's as it arrives, this host's once
   * it was written and notified, so a question on any socket can already be claimed on every host.
   */
  onFrame(listener: (frame: DownFrame, owner: string) => void): void;
  /** An answer claimed on another host for a question this host owns. */
  onAnswer(listener: (body: unknown) => void): void;
  /**
   * Where the cluster reads this host's own pending questions, to reconcile them with the database after an outage,
   * and the rule each was asked with, written beside it so that every host judges an answer by it.
   */
  setOwnPending(source: OwnPending): void;
  /** Where the cluster reads which sessions' turns this host holds, so that only a turn's end gives its row back. */
  setOwnTurns(read: () => string[]): void;
  /** Stop pressed on another host for a session: abort its turn here, if it runs here. */
  onStop(listener: (sessionId: string) => void): void;
  /** Asks every other host to abort the session's turn and outside calls. */
  sendStop(sessionId: string): Promise<void>;
  /** Tells every other host that this one changed the push subscriptions. */
  sendPushChanged(): Promise<void>;
  /**
   * What this host keeps of the push subscriptions may be stale: another host changed them, or the LISTEN connection was
   * lost or is back (notifications may have been missed in between).
   */
  onPushStale(listener: () => void): void;
  /** This host became unhealthy (disconnected or lost): its sockets should move to a healthy host. */
  onUnhealthy(listener: (state: ClusterState) => void): void;
  /** Called each time the host is back from an outage, once it reconciled its own work with the database. */
  onRecovered(listener: () => Promise<void>): void;
  /** Waits until every frame published so far reached the database. */
  flush(): Promise<void>;
  /** Stops renewing, removes this host's lease, stops listening. */
  close(): Promise<void>;
}

export type ClusterState = "ok" | "disconnected" | "lost";

/** This host's own pending questions, as its pending table holds them. */
export interface OwnPending {
  replay(): QuestionRequestedFrame[];
  ruleOf(rpcId: string): AnswerRule | undefined;
  messageOf(rpcId: string): string | undefined;
}

export interface ClusterOptions {
  store: PgStore;
  log: Logger;
  /** Lease expiry (PARLEY_LEASE_S); renewed every sixth of it. Default 30 s. */
  leaseMs?: number;
  /** Where this host serves, recorded with its lease. */
  address: string;
}

export const DEFAULT_LEASE_MS = 30_000;
/** Why a host whose lease was adopted stops: what it held is settled elsewhere, and it rejoins as a new host when started again. */
export const CLUSTER_LOST_MESSAGE = "this host's lease in the cluster expired and another host adopted its work: it stops; start it again to rejoin the cluster";

/** Why a host in `state` refuses answers now, or null when it accepts them. */
function refusalIn(state: ClusterState, overdue: boolean): string | null {
  if (state === "lost") return "this host's lease in the cluster expired and another host adopted its questions: it accepts no answers; your draft is kept, the page moves to a healthy host";
  if (state === "disconnected" || overdue) return "this host lost its database connection: the answer was not sent; your draft is kept, retry in a moment or through another host";
  return null;
}

/**
 * Makes this host and the cluster agree again, after an outage or a notification it could not read: the resolutions whose
 * send failed go again, then this host's questions and turns are reconciled with their rows, its view of the others'
 * questions is read again, and the listeners re-read what they keep.
 */
async function catchUp(outbox: Outbox, reconciliation: Reconciliation, view: ClusterView, recovered: Iterable<() => Promise<void>>) {
  await outbox.idle();
  outbox.resendFailed();
  await outbox.idle();
  if (outbox.unsent() > 0) throw new Error(`${outbox.unsent()} resolutions could not be sent again`);
  await reconcile(reconciliation);
  await view.reload();
  for (const listener of recovered) await listener();
}

/** Deletes the large frames every host had time to read, once a minute while `healthy()`. */
function sweepEveryMinute(store: PgStore, log: Logger, healthy: () => boolean): NodeJS.Timeout {
  const sweeper = setInterval(() => {
    if (healthy()) sweepLargeFrames(store).catch((error: unknown) => log({ event: "cluster/sweep-failed", error: String(error) }));
  }, 60_000);
  sweeper.unref();
  return sweeper;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { store, log } = options;
  const instance = store.instance;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const lease = createLease(store, instance, leaseMs);
  let state: ClusterState = "ok";
  let live = 1;
  let closed = false;
  const view = createClusterView(store);
  const frameListeners = new Set<(frame: DownFrame, owner: string) => void>();
  const answerListeners = new Set<(body: unknown) => void>();
  const stopListeners = new Set<(sessionId: string) => void>();
  const pushStaleListeners = new Set<() => void>();
  const pushStale = () => pushStaleListeners.forEach((listener) => listener());
  let ownPending: OwnPending = { replay: () => [], ruleOf: () => undefined, messageOf: () => undefined };
  /** How an adopted answer settles its tool row; null until the host is wired (beginAdopting), and nothing is adopted before. */
  let settler: ((tool: ToolCall, given: GivenAnswer) => AnswerEffect | null) | null = null;
  let ownTurns: () => string[] = () => [];
  const unhealthyListeners = new Set<(state: ClusterState) => void>();
  const recoveredListeners = new Set<() => Promise<void>>();

  const outbox = createOutbox({
    store,
    instance,
    ruleOf: (rpcId) => ownPending.ruleOf(rpcId),
    messageOf: (rpcId) => ownPending.messageOf(rpcId),
    ownTurns: () => ownTurns(),
    onAdopted: () => (closed ? undefined : setState("lost")), // a host that left on closing has no lease row either
    onFailed(error) {
      log({ event: "cluster/publish-failed", error: error instanceof Error ? error.message : String(error) });
      setState("disconnected");
    },
    deliver: (frame, rule) => deliver(frame, instance, rule),
  });
  const publish = outbox.publish;
  /** A notification could not be read (a large frame's row, say): the next renewal reads again what it may have said. */
  let missed = false;
  const incoming = serial((error) => ((missed = true), log({ event: "cluster/receive-failed", error: errorText(error) })));

  function setState(next: ClusterState) {
    if (state === next || state === "lost") return;
    state = next;
    log({ event: "cluster/state", state, instance });
    if (next === "lost") store.refuseWrites(`this host's lease in the cluster expired and its work was adopted by another host: it writes nothing more; restart it`);
    if (next !== "ok") for (const listener of unhealthyListeners) listener(next);
  }

  /** Whether the LISTEN connection is up (false until it first is). */
  let listening = () => false;
  // A frame made by this host on another's behalf (adoption) goes out whatever this host's own lease.
  const adopt = async () => (settler ? adoptExpired({ store, log, instance, view, settle: settler, emit: (frame) => publish(frame, true) }) : undefined);
  /** The adoption under way, one at a time and beside the renewals: one that waits on a lock never lets this host's lease lapse. */
  let adopting: Promise<void> | null = null;
  const adoptBeside = () => void (adopting ??= adopt().catch((error: unknown) => log({ event: "cluster/adoption-failed", instance, error: errorText(error) })).finally(() => (adopting = null)));
  const orphans = createOrphanSweep({ store, instance, view, log, graceMs: leaseMs, deliver: (frame, owner) => deliver(frame, owner, undefined) });
  /** The catch-up under way, one at a time: a renewal waits for it, and the next tick's renewal still renews the lease. */
  let catching: Promise<void> | null = null;
  const answer = (body: unknown) => answerListeners.forEach((listener) => listener(body));
  const catchUpOnce = () =>
    // A notification missed from here on is caught up by the next one.
    (catching ??= ((missed = false), catchUp(outbox, { store, instance, log, own: () => ownPending.replay(), ownTurns: () => ownTurns(), publish, published: outbox.idle, answer }, view, recoveredListeners)).finally(() => (catching = null)));

  async function renew() {
    if (closed || state === "lost") return;
    if (lease.overdue()) setState("disconnected");
    try {
      if (!(await lease.renew())) {
        setState("lost");
        return;
      }
      // Back from an outage, or a notification missed: what this host holds and what the cluster holds agree again.
      if ((state === "disconnected" || missed) && listening()) {
        await catchUpOnce();
        if ((state as ClusterState) === "lost") return; // adopted meanwhile (a frame found its lease row gone)
        if ((state as ClusterState) !== "ok") log({ event: "cluster/state", state: "ok", instance });
        state = "ok";
      }
      adoptBeside();
      if (state === "ok") orphans.beside();
      live = await lease.countLive();
    } catch (error) {
      log({ event: "cluster/renew-failed", error: errorText(error) });
      setState("disconnected");
    }
  }

  function deliver(frame: DownFrame, owner: string, rule: AnswerRule | undefined) {
    view.track(frame, owner, rule);
    for (const listener of frameListeners) listener(frame, owner);
  }

  const notify = async (envelope: Envelope) => void (await notifyAll(store, [await notePayload(store, instance, JSON.stringify(envelope))]));

  async function receive(payload: string) {
    const envelope = await openEnvelope(store, instance, payload);
    if (envelope === null) return;
    if ("to" in envelope) {
      if (envelope.to === instance) for (const listener of answerListeners) listener(envelope.answer);
      return;
    }
    if ("stop" in envelope) {
      for (const listener of stopListeners) listener(envelope.stop);
      return;
    }
    if ("changed" in envelope) return pushStale();
    if (!("f" in envelope)) return;
    const frame = DownFrame.parse(envelope.f);
    deliver(frame, envelope.s, readRule(envelope.rule));
  }

  await lease.register(options.address);
  // Past the lease without a renewal another host may already have adopted this one's work: write nothing until renewed.
  store.refuseWritesWhen(() => (lease.overdue() ? "this host has not renewed its lease in the cluster in time: it writes nothing until it has" : null));
  const listener = await startListener({
    url: store.url,
    log,
    retryMs: lease.renewMs,
    onPayload: (payload) => incoming.push(() => receive(payload)),
    // Notifications may be missed from here until listening again: what is kept of the push subscriptions is read again.
    onLost: () => (pushStale(), setState("disconnected")),
    onReconnected: () => (pushStale(), void renew()),
  });
  listening = () => listener.connected();
  await view.reload();
  const timer = setInterval(() => void renew(), lease.renewMs);
  timer.unref();
  const sweeper = sweepEveryMinute(store, log, () => state === "ok");

  return {
    id: store.clusterId,
    instance,
    instances: () => live,
    state: () => (state === "ok" && lease.overdue() ? "disconnected" : state),
    refusal: () => refusalIn(state, lease.overdue()),
    publish,
    async beginAdopting(settle) {
      settler = settle;
      await adopt();
    },
    onFrame: (callback) => void frameListeners.add(callback),
    onAnswer: (callback) => void answerListeners.add(callback),
    setOwnTurns: (read) => void (ownTurns = read),
    setOwnPending: (source) => void (ownPending = source),
    onUnhealthy: (callback) => void unhealthyListeners.add(callback),
    onRecovered: (callback) => void recoveredListeners.add(callback),
    onStop: (callback) => void stopListeners.add(callback),
    sendStop: (sessionId) => notify({ s: instance, stop: sessionId }),
    sendPushChanged: () => notify({ s: instance, changed: "push" }),
    onPushStale: (callback) => void pushStaleListeners.add(callback),
    pending: view.pending,
    question: view.question,
    fetchPending: view.fetchPending,
    ...createClaims(store, instance, () => outbox.idle()),
    ...createPeers(store, instance, log),
    flush: () => outbox.idle(),
    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(sweeper);
      listener.stop();
      await adopting;
      await orphans.idle();
      await outbox.idle();
      if (state !== "lost") await lease.leave().catch((error: unknown) => log({ event: "cluster/leave-failed", error: String(error) }));
      await listener.end();
    },
  };
}
