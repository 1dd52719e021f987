import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { api, until } from "./harness";
import { startHostProcess, type HostProcess } from "./host-process";
import { TEST_MCP_STDIO_ARGS } from "./test-mcp-server";

const MCP_READY_MS = 30_000;

/**
 * A host process with the test MCP server over stdio as `notes` (nothing auto-approved), resolved once that server is
 * ready so a call reaches it; `dataDir` restarts one on the data dir an earlier one wrote its config into.
 */
export async function startMcpHostProcess(env: NodeJS.ProcessEnv = {}, dataDir?: string): Promise<HostProcess> {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), "parley-host-"));
  const config = path.join(dir, "mcp.json");
  if (dataDir === undefined) writeFileSync(config, JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: TEST_MCP_STDIO_ARGS } } }));
  const host = await startHostProcess({ dataDir: dir, env: { ...env, PARLEY_MCP_CONFIG: config } });
  try {
    await until(async () => (((await api(host.url, "/api/health")).body as { mcp?: { state: string }[] }).mcp?.[0]?.state === "ready" ? true : undefined), "the MCP server ready", MCP_READY_MS);
  } catch (error) {
    await host.kill("SIGKILL");
    throw error;
  }
  return host;
}
