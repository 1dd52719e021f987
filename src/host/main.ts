import path from "node:path";
import { exposure, loginBanner, publicUrlOf } from "./fence/exposure";
import { HEARTBEAT_INTERVAL_MS } from "../protocol/schemas";
import { createJsonLogger } from "./log";
import { loadMcpConfig } from "./mcp-client/config";
import { loadAgentsConfig } from "./acp/config";
import { createModelFromEnv, describeModel } from "./models/config";
import { DEFAULT_MAX_STEPS, startServer, type RunningServer } from "./server";
import { DEFAULT_MAX_PENDING } from "./pending/pending-table";

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** How long a host that left its cluster waits for its shutdown before it exits anyway. */
const LEAVE_TIMEOUT_MS = 10_000;

function fail(message: string): never {
  process.stderr.write(`parley: ${message}\n`);
  process.exit(1);
}

function integer(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) fail(`${name}=${raw} is not a whole number of at least ${min}`);
  return value;
}

/** PARLEY_PUSH_SUBJECT: the contact push services see in every VAPID claim, a `mailto:` or `https:` URL. */
function pushSubjectOf(value: string): string {
  if (!/^(mailto:.+@.+|https:\/\/.+)$/.test(value)) fail(`PARLEY_PUSH_SUBJECT=${value} is not a mailto: or https: URL`);
  return value;
}

async function main() {
  const env = process.env;
  const log = createJsonLogger((line) => process.stdout.write(line));
  const port = integer("PORT", 8787, 0);
  const maxSteps = integer("PARLEY_MAX_STEPS", DEFAULT_MAX_STEPS, 1);
  const mcpWaitSeconds = integer("PARLEY_MCP_WAIT_S", 0, 0);
  const dataDir = env.PARLEY_DATA_DIR || "./data";
  const host = env.HOST || "127.0.0.1";
  let publicUrl: URL | undefined;
  try {
    publicUrl = env.PARLEY_PUBLIC_URL ? publicUrlOf(env.PARLEY_PUBLIC_URL) : undefined;
  } catch (error) {
    fail((error as Error).message);
  }
  const exposed = exposure(host, env.PARLEY_TOKEN || undefined, publicUrl);

  let server: RunningServer;
  try {
    const model = createModelFromEnv(env);
    log({ event: "model", ...describeModel(model) });
    const mcpServers = loadMcpConfig(env, process.cwd());
    if (mcpServers.file !== null) log({ event: "mcp/config", file: mcpServers.file, servers: mcpServers.servers.length });
    const agents = loadAgentsConfig(env, process.cwd());
    if (agents.file !== null) log({ event: "acp/config", file: agents.file, agents: agents.agents.map((agent) => agent.name).join(","), workspaces: agents.workspaces.join(",") });
    server = await startServer({
      host,
      port,
      dataDir,
      ...(env.PARLEY_DATABASE_URL
        ? { databaseUrl: env.PARLEY_DATABASE_URL, leaseMs: integer("PARLEY_LEASE_S", 30, 1) * 1000, ...(env.PARLEY_PEER_URL ? { peerUrl: env.PARLEY_PEER_URL } : {}) }
        : {}),
      model,
      token: exposed.token,
      secureCookie: publicUrl?.protocol === "https:",
      allowedHosts: [...list(env.PARLEY_ALLOWED_HOSTS), ...exposed.allowedHosts],
      allowedOrigins: list(env.PARLEY_ALLOWED_ORIGINS),
      maxSteps,
      maxPending: integer("PARLEY_MAX_PENDING", DEFAULT_MAX_PENDING, 1),
      heartbeatIntervalMs: integer("PARLEY_HEARTBEAT_MS", HEARTBEAT_INTERVAL_MS, 100),
      mcp: { waitSeconds: mcpWaitSeconds === 0 ? null : mcpWaitSeconds },
      mcpServers,
      agents,
      agentIdleMs: integer("PARLEY_AGENT_IDLE_S", 600, 1) * 1000,
      pushAllowLoopback: env.PARLEY_PUSH_ALLOW_LOOPBACK === "1",
      // The contact push services see: the one given, else the public address (Apple's refuses a placeholder).
      ...(env.PARLEY_PUSH_SUBJECT ? { pushSubject: pushSubjectOf(env.PARLEY_PUSH_SUBJECT) } : publicUrl ? { pushSubject: publicUrl.origin } : {}),
      staticDir: path.resolve(import.meta.dirname, "../../dist"),
      log,
    });
    log({ event: "listening", url: server.url, hostId: server.hostId, model: model.name, dataDir: path.resolve(dataDir), token: exposed.token !== undefined, tokenGenerated: exposed.generated });
    if (exposed.showLogin) process.stderr.write(loginBanner(exposed.loginUrl(server.port), exposed.generated));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EADDRINUSE") fail(`port ${port} is already in use; set PORT to another port`);
    fail(error instanceof Error ? error.message : String(error));
  }

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log({ event: "stopping", signal });
    server.close().then(
      () => {
        log({ event: "stopped" });
        process.exit(0);
      },
      (error: unknown) => fail(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  // Its work was adopted elsewhere: it closes its sockets and exits 1, so a proxy sends no one to it and a supervisor starts it afresh.
  server.onClusterLost((reason) => {
    if (stopping) return;
    stopping = true;
    process.exitCode = 1;
    log({ event: "stopping", reason: "cluster-lost" });
    const leave = () => fail(reason);
    server.close().then(leave, leave);
    setTimeout(leave, LEAVE_TIMEOUT_MS).unref();
  });
}

void main();
