import { useCallback, useEffect, useRef, useState } from "react";
import type { AgentsApi, AgentsList } from "../client/agents-api";

/** The host's ACP agents (GET /api/agents), asked once and again on `refresh`; null until known or when the host cannot say. */
export function useAgents(agentsApi: AgentsApi): { agents: AgentsList | null; refresh: () => void } {
  const [agents, setAgents] = useState<AgentsList | null>(null);
  const live = useRef(true);
  const refresh = useCallback(() => {
    agentsApi.list().then(
      (list) => {
        if (live.current) setAgents(list);
      },
      (error: unknown) => console.info("the host's agents are unknown; New chat offers Parley's assistant only", error),
    );
  }, [agentsApi]);
  useEffect(() => {
    live.current = true;
    refresh();
    return () => {
      live.current = false;
    };
  }, [refresh]);
  return { agents, refresh };
}
