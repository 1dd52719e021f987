import { useEffect, useState } from "react";
import type { Api } from "../client/api";
import type { HostFacts } from "../features/chat/host-facts";

/**
 * The host's model and ready MCP servers (GET /api/health); null until answered. Asked again every 2 s while a server is
 * still starting (its `/tool` starter and command come once it is ready), every 30 s while one has failed (the host starts
 * it again), and after a failed answer, waiting twice as long each time up to 30 s.
 */
export function useHostFacts(health: Api["health"]): HostFacts | null {
  const [facts, setFacts] = useState<HostFacts | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wait = 1000;
    const ask = () =>
      void health().then(
        (answer) => {
          if (!live) return;
          const mcp = answer.mcp ?? [];
          setFacts({ model: answer.model ?? null, servers: mcp.filter((server) => server.state === "ready" && server.tools > 0).map((server) => server.name) });
          // One that failed is started again by the host, and reads failed until it is ready.
          const waiting = mcp.some((server) => server.state === "starting") ? 2000 : mcp.some((server) => server.state === "failed") ? 30_000 : 0;
          if (waiting > 0) timer = setTimeout(ask, waiting);
        },
        (error: unknown) => {
          console.warn("the host's model is not known yet; asking again", error);
          if (live) timer = setTimeout(ask, (wait = Math.min(wait * 2, 30_000)));
        },
      );
    ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [health]);
  return facts;
}
