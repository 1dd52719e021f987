import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { hostname } from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createChat } from "./sessions/service";
import { createParleyAgent } from "./agents/parley-agent";
import type { DownFrame, SessionAgent } from "../protocol/schemas";
import { createAcpAgents, type AcpAgents } from "./agents/acp-agent";
import { ModeRefused } from "./agents/acp-session-row";
import { toWire } from "./sessions/transcript";
import type { AgentsConfig } from "./acp/config";
import { agentRoutes } from "./http/agent-routes";
import { judgeAnswerRule } from "./answer-judge";
import { createMcpToolSource, grantBook, mediaSink } from "./mcp-client/tool-source";
import { createBuiltInTools } from "./tools/built-in";
import { createToolDoor } from "./tools/registry";
import { createAuth, MIN_TOKEN_CHARS, type Auth } from "./fence/auth";
import { authRoutes } from "./http/login-routes";
import { chatRoutes } from "./http/chat-routes";
import { createFrameBus } from "./downlink/frame-bus";
import { healthRoute } from "./http/health";
import { HttpError, type Route, type RouteContext } from "./http/http";
import { pendingRoutes } from "./http/pending-routes";
import type { FenceOptions, FenceVerdict } from "./fence/fence";
import { createLogins } from "./fence/logins";
import { stoppedTool } from "./sessions/history";
import { silentLogger, type Logger } from "./log";
import type { Model } from "./models/types";
import { createMcpEndpoint, type McpEndpointOptions } from "./mcp-server/endpoint";
import type { McpConfig } from "./mcp-client/config";
import { createMcpTools, type McpTools } from "./mcp-client/manager";
import { createDownlink } from "./downlink/downlink";
import { createPendingTable } from "./pending/pending-table";
import { createStaticHandler } from "./http/static";
import { createRequestHandler } from "./http/request-handler";
import { StorageError } from "./storage-error";
import { createRouteLimiter, DEFAULT_RATE_LIMITS, type RateLimitedRoute, type RateLimits } from "./fence/rate-limit";
import { openStore, type Store } from "./store";
import { CLUSTER_LOST_MESSAGE, startCluster, type Cluster } from "./pg/cluster";
import { createClusterPendingTable } from "./pg/pending";
import { isPgStore, openPgStore } from "./pg/store";
import { clusterChat, endAfterFrames, wireCluster } from "./pg/wire";
import { createUserInteraction, type UserInteraction } from "./pending/user-interaction";
import { loginsWithPush, startHostPush } from "./push/push-host";

export const DEFAULT_MAX_STEPS = 25;
/** How long an idle kept-alive HTTP connection stays open (the `Keep-Alive: timeout=65` every response carries). */
export const KEEP_ALIVE_MS = 65_000;

export interface ServerOptions {
  host?: string;
  port?: number;
  /** A directory for the SQLite database, or ":memory:". */
  dataDir: string;
  model: Model;
  token?: string | undefined;
  /** The host is reached over https (PARLEY_PUBLIC_URL): the login cookie is `Secure`, never sent or set over plain http. */
  secureCookie?: boolean | undefined;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  maxSteps?: number;
  /** The Vite build to serve; defaults to ./dist. */
  staticDir?: string;
  log?: Logger;
  pingIntervalMs?: number;
  /** How often each socket gets a heartbeat frame (PARLEY_HEARTBEAT_MS); default 15 s. */
  heartbeatIntervalMs?: number;
  /** Per-client limits on responses, message posts, session creation and wrong tokens; routes left out keep their defaults; `false` turns them off. */
  rateLimits?: Partial<RateLimits> | false;
  /** A store to use instead of opening one in `dataDir` (tests inject faults through it); the host closes it. */
  store?: Store;
  /** PARLEY_DATABASE_URL: keep everything in this Postgres database instead of SQLite in `dataDir` (docs/architecture.md, Several hosts). */
  databaseUrl?: string;
  /** With Postgres: how long a host's lease lasts without renewal (PARLEY_LEASE_S); default 30 s. */
  leaseMs?: number;
  /**
   * With Postgres: where the other hosts reach this one (PARLEY_PEER_URL), to pass on `/mcp` requests of the MCP sessions
   * it holds; default its own URL, with the machine's name in place of an address that listens on every interface.
   */
  peerUrl?: string;
  /** The `/mcp` front door: wait tickets (PARLEY_MCP_WAIT_S), progress and idle intervals, limits. */
  mcp?: Omit<McpEndpointOptions, "fence" | "tools" | "chat" | "log">;
  /** The MCP servers whose tools the agent uses (PARLEY_MCP_CONFIG); none when absent. */
  mcpServers?: McpConfig;
  /** At most this many questions wait on this host at once, from every source (PARLEY_MAX_PENDING); default 1,000. */
  maxPending?: number;
  /** The ACP agents a chat may run (PARLEY_AGENTS_CONFIG, parley.agents.json); none when absent. */
  agents?: AgentsConfig;
  /** Stop an ACP agent's process after this long without work (PARLEY_AGENT_IDLE_S); default 10 min. */
  agentIdleMs?: number;
  /** How long a stopped ACP turn waits for its agent to end the prompt (default 15 s). */
  agentCancelGraceMs?: number;
  /** PARLEY_PUSH_ALLOW_LOOPBACK=1, for tests only: Web Push also goes to `http://` and `https://` endpoints on 127.0.0.1. */
  pushAllowLoopback?: boolean;
  /** PARLEY_PUSH_SUBJECT: the `mailto:` or `https:` contact the push services see in the VAPID claim. */
  pushSubject?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  hostId: string;
  /** The seam the tools ask through; benchmarks ask in-process with it. */
  userInteraction: UserInteraction;
  /** The configured MCP servers' tools and status. */
  mcpTools: McpTools;
  /** The configured ACP agents. */
  acpAgents: AcpAgents;
  /** Graceful shutdown: stop accepting, settle pending questions, close sockets with 1001, close the database. */
  close(): Promise<void>;
  /**
   * Called once, with the reason, when this host's lease in its cluster expired and another host adopted its work: it can
   * write nothing more, so its process should stop and be started afresh (docs/protocol.md, cluster-lease). Never on SQLite.
   */
  onClusterLost(listener: (reason: string) => void): void;
}

/** The ACP agents of the config (docs/architecture.md, ACP agents), `GET /api/agents` and a chat's mode, and the check of a new ACP chat. */
function acpParts(options: ServerOptions, store: Store, log: Logger, cluster: Cluster | null, publish: (frame: DownFrame) => void) {
  const instance = cluster?.instance;
  const config = options.agents ?? { file: null, agents: [], workspaces: [path.resolve(".")] };
  const acpAgents = createAcpAgents({
    config,
    log,
    transcript: (sessionId) => store.listMessages(sessionId),
    async updateRow(row) {
      await store.updateMessage(row);
      publish({ type: "message/upserted", message: toWire(row) });
    },
    shared: isPgStore(store),
    ...(instance ? { instance } : {}),
    ...(options.agentIdleMs ? { idleMs: options.agentIdleMs } : {}),
    ...(options.agentCancelGraceMs ? { cancelGraceMs: options.agentCancelGraceMs } : {}),
  });
  const agentHost = cluster ? acpHostOf(store, acpAgents, (other) => cluster.peerUrl(other)) : undefined;
  const acpRoutes = agentRoutes({
    agents: () => acpAgents.statuses(),
    log,
    ...(agentHost ? { agentHost } : {}),
    workspaces: config.workspaces,
    async setMode(sessionId, mode) {
      const row = await store.getSession(sessionId);
      if (!row) return "not-found";
      const agent = row.agent?.kind === "acp-agent" ? acpAgents.forSession(row) : null;
      if (!agent?.setMode) return "not-agent";
      try {
        await agent.setMode(sessionId, mode);
      } catch (error) {
        if (error instanceof ModeRefused) return error.refusal;
        throw error;
      }
      return "ok";
    },
  });
  const sessionAgent = (name: string, cwd: string | undefined, mode: string | undefined): { ok: true; agent: SessionAgent } | { ok: false; reason: string } => {
    const check = acpAgents.check(name, cwd);
    return check.ok && mode !== undefined ? { ok: true, agent: { ...check.agent, mode } } : check;
  };
  return { acpAgents, acpRoutes, sessionAgent, agentHost: agentHost ? { agentHost } : {} };
}

/** Where a cluster host passes an ACP chat's prompt: the live host whose process opened the chat's agent session, if not this one. */
function acpHostOf(store: Store, acpAgents: AcpAgents, peerUrl: (instance: string) => Promise<URL | null>) {
  return async (sessionId: string): Promise<URL | null> => {
    const row = await store.getSession(sessionId);
    if (row?.agent?.kind !== "acp-agent") return null;
    const host = await acpAgents.hostOf(sessionId);
    return host === null ? null : peerUrl(host);
  };
}

/** The routes' rate brake (429 with Retry-After), and the seconds to wait for a new MCP session, or null when it may start. */
function throttles(rateLimit: ReturnType<typeof createRouteLimiter>) {
  const throttle = ({ request }: RouteContext, route: RateLimitedRoute) => {
    const verdict = rateLimit(route, request.socket.remoteAddress ?? "unknown");
    if (verdict.ok) return;
    request.resume();
    throw new HttpError(429, "RATE_LIMITED", `too many requests; retry in ${verdict.retryAfterSeconds} s`, { "Retry-After": String(verdict.retryAfterSeconds) });
  };
  const throttleSession = (request: IncomingMessage) => {
    const verdict = rateLimit("sessions", request.socket.remoteAddress ?? "unknown");
    return verdict.ok ? null : verdict.retryAfterSeconds;
  };
  return { throttle, throttleSession };
}

/** PARLEY_PEER_URL as a URL: http or https, nothing else. */
export function peerUrlOf(value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) throw new Error(`PARLEY_PEER_URL=${value} is not an http or https URL`);
  return url;
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Rows no live host owns (their host died, or this store's own past before a restart): running tool rows stop, streaming replies are interrupted. */
async function settleOrphanedRows(store: Store, log: Logger) {
  const stopped = await store.stopRunningTools(stoppedTool);
  if (stopped > 0) log({ event: "store/interrupted-tools", count: stopped });
  const interrupted = await store.interruptStreaming();
  if (interrupted > 0) log({ event: "store/interrupted-replies", count: interrupted });
}

/**
 * What a start finds of the last run: expired logins go and (on one host) orphaned rows are settled. In a cluster they are
 * settled only after this host adopted what dead hosts left, which publishes each row it settles to every host and writes
 * an answer accepted before its host died into its row (docs/protocol.md, cluster-adopt).
 */
async function recoverStore(store: Store, log: Logger, logins: boolean, clustered: boolean) {
  if (!clustered) await settleOrphanedRows(store, log);
  if (logins) await store.purgeLogins(Date.now());
}

/**
 * Room for every cookie a browser keeps for this host name (Chromium: 180 of up to 4 KiB, about 720 KiB), which any page on
 * another port of the same name can fill: past Node's 16 KiB, every request of the owner's would answer 431.
 */
const MAX_HEADER_BYTES = 1024 * 1024;

/** Starts the Parley host: HTTP uplink, `/api/mux` downlink, agent loop and persistence. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? silentLogger;
  if (options.token !== undefined && options.token.length < MIN_TOKEN_CHARS) {
    throw new Error(`PARLEY_TOKEN must be at least ${MIN_TOKEN_CHARS} characters long (it has ${options.token.length})`);
  }
  const store = options.store ?? (options.databaseUrl ? await openPgStore({ url: options.databaseUrl, instance: randomUUID() }) : openStore(options.dataDir));
  const cluster = isPgStore(store) ? await startCluster({ store, log, address: `${hostname()} pid ${process.pid}`, ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}) }) : null;
  const hostId = cluster?.id ?? randomUUID();
  await recoverStore(store, log, options.token !== undefined, cluster !== null);

  const rateLimit = createRouteLimiter(options.rateLimits ?? DEFAULT_RATE_LIMITS);
  /** Made once the port is known: the login cookie is named per port. */
  let auth: Auth | null = null;
  const fence: FenceOptions = {
    allowedHosts: options.allowedHosts ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    ...(options.token === undefined ? {} : { authenticate: (request: IncomingMessage, rotate: boolean): Promise<FenceVerdict> => auth!.authenticate(request, rotate) }),
  };
  const bus = createFrameBus();
  const pending = createPendingTable({
    broadcast: bus.publish,
    burst: bus.burst,
    log,
    commit: (answer) => chat.commitAnswer(answer),
    judge: judgeAnswerRule,
    ...(options.maxPending === undefined ? {} : { maxPending: options.maxPending }),
    ...(cluster ? { claimAbort: (rpcId: string) => cluster.claimAbort(rpcId) } : {}),
  });
  const shared = cluster ? createClusterPendingTable(pending, cluster, log, judgeAnswerRule) : null;
  const push = await startHostPush({ store, log, token: options.token, cookieName: () => auth?.cookieName ?? null, subscribe: bus.subscribe, cluster, pending: () => shared?.replay() ?? [], allowLoopback: options.pushAllowLoopback, subject: options.pushSubject });
  const userInteraction = createUserInteraction(pending);
  const tools = createBuiltInTools(userInteraction);
  const mcpTools = createMcpTools(options.mcpServers ?? { file: null, servers: [] }, { log, ask: (request) => userInteraction.ask(request) });
  const door = createToolDoor([tools, createMcpToolSource({ mcpTools, interaction: userInteraction, log, grants: grantBook(store), putMedia: mediaSink(store) })]);
  const { acpAgents, acpRoutes, sessionAgent, agentHost } = acpParts(options, store, log, cluster, bus.publish);
  const parleyAgent = createParleyAgent({ model: options.model, tools: door, transcript: (sessionId) => store.listMessages(sessionId), maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS, log });
  const chat = createChat({
    store,
    // A session an outside caller opened (`/mcp`) has no agent of Parley's: its prompts are refused.
    agents: { forSession: (session) => (session.agent?.kind === "acp-agent" ? acpAgents.forSession(session) : session.agent ? null : parleyAgent), forget: (sessionId) => acpAgents.forget(sessionId) },
    tools: door,
    interaction: userInteraction,
    broadcast: bus.publish,
    pendingCount: (sessionId) => pending.countFor(sessionId) + (shared?.remoteCountFor(sessionId) ?? 0),
    remoteState: (sessionId) => remote?.stateOf(sessionId),
    sharedStore: cluster !== null,
    log,
  });
  pending.onChange((sessionId) => {
    chat.refresh(sessionId).catch((error: unknown) => log({ event: "session/refresh-failed", sessionId, code: error instanceof StorageError ? error.code : "INTERNAL" }));
  });
  const downlink = createDownlink({
    hostId,
    fence,
    replay: () => (shared ?? pending).replay(),
    ...(cluster ? { accepting: () => cluster.state() === "ok", beforeOpen: () => cluster.flush() } : {}),
    log,
    ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}),
    ...(options.heartbeatIntervalMs ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
  });
  // In a cluster every frame, this host's too, reaches the sockets through the cluster (pg/wire.ts).
  if (!cluster) bus.subscribe((frame) => downlink.broadcast(frame), (work) => downlink.hold(work));
  const remote = cluster ? wireCluster(cluster, { bus, downlink, log }) : null;
  const peers = cluster ? { instance: cluster.instance, urlOf: (instance: string) => cluster.peerUrl(instance) } : undefined;
  const { throttle, throttleSession } = throttles(rateLimit);
  const mcp = createMcpEndpoint({ ...options.mcp, fence, tools, chat, log, throttleSession, ...(peers ? { peers } : {}) });
  const serveStatic = createStaticHandler(options.staticDir ?? path.resolve("dist"));
  const routes: Route[] = [
    healthRoute({ hostId, model: options.model.name, store, cluster, mcp: () => mcpTools.status() }),
    ...authRoutes(() => auth),
    ...pendingRoutes(shared ?? pending, throttle),
    ...chatRoutes({ chat: cluster && remote ? clusterChat(chat, cluster, remote, log) : chat, throttle, sessionAgent, log, ...agentHost }),
    ...acpRoutes,
    ...push.routes(),
  ];

  const handle = createRequestHandler({
    fence,
    routes,
    log,
    mcp: (request, response) => mcp.handle(request, response),
    serveStatic,
    auth: () => auth,
    closing: () => closing !== null,
    ...(cluster ? { beforeWrite: (response: ServerResponse) => endAfterFrames(response, () => cluster.flush()) } : {}),
  });

  let closing: Promise<void> | null = null;
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (request, response) => void handle(request, response));
  // A kept-alive connection outlives a client's pauses between requests: with Node's 5 s, a request sent as the host
  // closes an idle connection meets a reset. The headers timeout (60 s) does not touch idle connections, so it stays as
  // it is. Shutdown still closes idle connections at once (close() below).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on("upgrade", (request, socket, head) => downlink.handleUpgrade(request, socket, head));

  const host = options.host ?? "127.0.0.1";
  try {
    // Adopted only now: an adopted question's answer needs the settler, and its close push the push service. The rows no
    // live host owns that adoption left are settled after it.
    if (cluster) {
      await cluster.beginAdopting((tool, given) => door.settle(tool, given));
      await settleOrphanedRows(store, log);
    }
    await remote?.load();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const listening = (server.address() as AddressInfo).port;
    acpAgents.startAll();
    await cluster?.advertise(peerUrlOf(options.peerUrl ?? formatUrl(host === "0.0.0.0" || host === "::" ? hostname() : host, listening)));
  } catch (error) {
    if (server.listening) server.close();
    await push.close();
    await cluster?.close();
    await store.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  // A cluster's hosts listen on different ports behind one proxy: its login cookie is named for the cluster, not the port.
  const cookieName = cluster ? { cookieName: `parley_login_${cluster.id.slice(0, 8)}` } : {};
  if (options.token !== undefined) auth = createAuth({ token: options.token, logins: loginsWithPush(createLogins(store, options.token, Date.now, log), push, log), port, limit: rateLimit, secure: options.secureCookie ?? false, ...cookieName });

  return {
    url: formatUrl(host, port),
    port,
    hostId,
    userInteraction,
    mcpTools,
    acpAgents,
    onClusterLost(listener) {
      cluster?.onUnhealthy((state) => {
        if (state === "lost") listener(CLUSTER_LOST_MESSAGE);
      });
    },
    close() {
      closing ??= (async () => {
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Settled now where no cluster is asked; in a cluster as each abort is claimed. The turns are stopped in the same
        // tick, before their questions' rejections reach them, so each question's row reads stopped, not failed; `/mcp`
        // then writes each outside call's result before it closes the streams.
        const disposed = pending.dispose();
        const stopped = chat.stop();
        await mcp.close();
        await stopped;
        await mcpTools.close();
        await acpAgents.close();
        // The sockets see every question settle (in a cluster, once its frame went round) before they close.
        await disposed;
        await cluster?.flush();
        await downlink.close();
        server.closeAllConnections();
        await serverClosed;
        await push.close();
        await cluster?.close();
        await store.close();
      })();
      return closing;
    },
  };
}
