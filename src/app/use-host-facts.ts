import { useEffect, useState } from "react";
import type { Api } from "../client/api";
import type { HostFacts } from "../features/chat/host-facts";

/** The host's model and ready MCP servers, asked once (GET /api/health); null until answered or when the host cannot say. */
export function useHostFacts(health: Api["health"]): HostFacts | null {
  const [facts, setFacts] = useState<HostFacts | null>(null);
  useEffect(() => {
    let live = true;
    health().then(
      (answer) => {
        if (!live) return;
        const servers = (answer.mcp ?? []).filter((server) => server.state === "ready" && server.tools > 0).map((server) => server.name);
        setFacts({ model: answer.model ?? null, servers });
      },
      (error: unknown) => console.warn("the host's model is unknown; the first screen says what Parley does", error),
    );
    return () => {
      live = false;
    };
  }, [health]);
  return facts;
}
