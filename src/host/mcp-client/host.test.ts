import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { api, testStoreEnv } from "../../testing/host/harness";
import { removeDataDir, startHostProcess, type HostProcess } from "../../testing/host/host-process";
import { TEST_MCP_STDIO_ARGS } from "../../testing/host/test-mcp-server";

const TEST_SERVER_TOOLS = 18;
const hosts: HostProcess[] = [];
const dirs: string[] = [];

function configFile(value: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-mcp-host-"));
  dirs.push(dir);
  const file = path.join(dir, "parley.mcp.json");
  writeFileSync(file, JSON.stringify(value));
  return file;
}

afterEach(async () => {
  for (const host of hosts.splice(0)) {
    await host.kill("SIGKILL");
    removeDataDir(host.dataDir);
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Health = { mcp?: { name: string; state: string }[] };

async function healthUntil(url: string, done: (body: Health) => boolean): Promise<Health> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const body = (await api(url, "/api/health")).body as Health;
    if (done(body)) return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("health never reached the expected state");
}

describe("the host with an MCP config", { timeout: 30_000 }, () => {
  it("stops at start-up naming the file and the wrong field [mcp-config]", async () => {
    const file = configFile({ mcpServers: { notes: { args: ["server.js"] } } });
    await expect(startHostProcess({ env: { ...(await testStoreEnv()), PARLEY_MCP_CONFIG: file } })).rejects.toThrow(
      `host exited with 1 before listening\nparley: MCP config ${file}: mcpServers.notes.command: expected string\n`,
    );
  });

  it("reports every server in /api/health while a broken one fails and the others work [mcp-health]", async () => {
    const file = configFile({
      mcpServers: {
        notes: { command: process.execPath, args: TEST_MCP_STDIO_ARGS },
        broken: { command: process.execPath, args: TEST_MCP_STDIO_ARGS, env: { TEST_MCP_FAIL_START: "1" } },
        off: { command: "never-started", disabled: true },
      },
    });
    const host = await startHostProcess({ env: { ...(await testStoreEnv()), PARLEY_MCP_CONFIG: file } });
    hosts.push(host);
    const body = await healthUntil(host.url, (health) => health.mcp?.[0]?.state === "ready" && health.mcp[1]?.state === "failed");
    expect(body.mcp).toEqual([
      { name: "notes", state: "ready", tools: TEST_SERVER_TOOLS },
      { name: "broken", state: "failed", tools: 0, error: "could not start (MCP error -32000: Connection closed): test server: refusing to start" },
      { name: "off", state: "disabled", tools: 0 },
    ]);
    expect(host.logs.filter((entry) => entry.event === "mcp/config")).toEqual([expect.objectContaining({ file, servers: 3 })]);
    expect(host.logs.find((entry) => entry.event === "mcp/server-failed")).toEqual(
      expect.objectContaining({ server: "broken", error: "could not start (MCP error -32000: Connection closed): test server: refusing to start", attempt: 0 }),
    );
    expect(await host.kill("SIGTERM")).toBe(0);
  });
});
