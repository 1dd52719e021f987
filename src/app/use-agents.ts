import { useCallback, useEffect, useRef, useState } from "react";
import type { AgentsApi, AgentsList } from "../client/agents-api";

/** How long New chat waits for the host's first list of agents before it starts an assistant chat instead. */
export const AGENTS_WAIT_MS = 3000;

/**
 * The host's ACP agents (GET /api/agents), asked once and again on `refresh`; `agents` is null until known or when the
 * host cannot say. `known` settles with the first answer, or with null when the host could not say or took longer than
 * `waitMs`.
 */
export function useAgents(agentsApi: AgentsApi, waitMs = AGENTS_WAIT_MS): { agents: AgentsList | null; known: Promise<AgentsList | null>; refresh: () => void } {
  const [agents, setAgents] = useState<AgentsList | null>(null);
  const [first] = useState(() => {
    let resolve: (list: AgentsList | null) => void = () => undefined;
    const promise = new Promise<AgentsList | null>((settle) => (resolve = settle));
    return { promise, resolve };
  });
  const live = useRef(true);
  const refresh = useCallback(() => {
    agentsApi.list().then(
      (list) => {
        first.resolve(list);
        if (live.current) setAgents(list);
      },
      (error: unknown) => {
        first.resolve(null);
        console.info("the host's agents are unknown; New chat offers Parley's assistant only", error);
      },
    );
  }, [agentsApi, first]);
  useEffect(() => {
    live.current = true;
    refresh();
    const late = setTimeout(() => first.resolve(null), waitMs);
    return () => {
      live.current = false;
      clearTimeout(late);
    };
  }, [refresh, first, waitMs]);
  return { agents, known: first.promise, refresh };
}
