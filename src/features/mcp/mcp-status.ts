import type { McpServerHealth } from "../../protocol/schemas";

/** How often the app asks `GET /api/health` how the MCP servers are doing. */
export const MCP_STATUS_POLL_MS = 30_000;

/**
 * Reads the MCP servers from `health` now and every `intervalMs`, telling `onChange` the failed ones
 * (docs/protocol.md, mcp-health). A health request that fails reports none: the connection notice
 * already says the host cannot be reached. Returns the stop function.
 */
export function watchMcpStatus(
  health: () => Promise<{ mcp?: McpServerHealth[] | undefined }>,
  onChange: (failed: McpServerHealth[]) => void,
  intervalMs = MCP_STATUS_POLL_MS,
): () => void {
  let stopped = false;
  let last = "[]";
  const report = (failed: McpServerHealth[]) => {
    const key = JSON.stringify(failed);
    if (stopped || key === last) return;
    last = key;
    onChange(failed);
  };
  const poll = () =>
    health().then(
      (body) => report((body.mcp ?? []).filter((server) => server.state === "failed")),
      () => report([]),
    );
  void poll();
  const timer = setInterval(() => void poll(), intervalMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
