import type { McpServerHealth } from "../../protocol/schemas";

/** How often the app asks `GET /api/health` how the MCP servers are doing. */
export const MCP_STATUS_POLL_MS = 30_000;
/** How soon it asks again while a server is still starting. */
export const MCP_STARTING_POLL_MS = 2_000;

/**
 * Reads the MCP servers from `health` now and every `intervalMs` (every `startingMs` while one is
 * starting), telling `onChange` the failed ones (docs/protocol.md, mcp-health). A health request that
 * fails reports none: the connection notice already says the host cannot be reached. Returns the stop function.
 */
export function watchMcpStatus(
  health: () => Promise<{ mcp?: McpServerHealth[] | undefined }>,
  onChange: (failed: McpServerHealth[]) => void,
  intervalMs = MCP_STATUS_POLL_MS,
  startingMs = MCP_STARTING_POLL_MS,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = "[]";
  const report = (failed: McpServerHealth[]) => {
    const key = JSON.stringify(failed);
    if (key === last) return;
    last = key;
    onChange(failed);
  };
  const poll = () => {
    void health().then(
      (body) => {
        if (stopped) return;
        const servers = body.mcp ?? [];
        report(servers.filter((server) => server.state === "failed"));
        timer = setTimeout(poll, servers.some((server) => server.state === "starting") ? startingMs : intervalMs);
      },
      () => {
        if (stopped) return;
        report([]);
        timer = setTimeout(poll, intervalMs);
      },
    );
  };
  poll();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
