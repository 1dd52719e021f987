import type { z } from "zod/mini";
import { checkedBody, toApiError } from "./api";
import type { Session } from "../protocol/schemas";
import type { AgentInfo as AgentInfoSchema, AgentsResponse } from "./checks";

/** One configured ACP agent as `GET /api/agents` reports it (docs/protocol.md, acp-agents). */
export type AgentInfo = z.infer<typeof AgentInfoSchema>;
/** `GET /api/agents`: the agents in file order and the folders a chat may run in. */
export type AgentsList = z.infer<typeof AgentsResponse>;

/** The host's ACP agents: listing them and opening a chat one of them runs. */
export interface AgentsApi {
  /** The configured agents; an empty list when the host has none or does not know the route. */
  list(): Promise<AgentsList>;
  /** `POST /api/sessions {agent, cwd}`; rejects with the host's message (a 400 names the rule it broke). */
  createChat(agent: string, cwd: string): Promise<Session>;
}

export function createAgentsApi(options: { baseUrl?: string; fetch?: typeof globalThis.fetch } = {}): AgentsApi {
  const baseUrl = options.baseUrl ?? "";
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return {
    async list() {
      const response = await doFetch(`${baseUrl}/api/agents`, { headers: { accept: "application/json" }, credentials: "same-origin" });
      if (response.status === 404) return { agents: [] };
      if (!response.ok) throw await toApiError(response);
      return checkedBody((checks) => checks.AgentsResponse, response);
    },
    async createChat(agent, cwd) {
      const response = await doFetch(`${baseUrl}/api/sessions`, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ agent, cwd }),
      });
      if (!response.ok) throw await toApiError(response);
      return (await checkedBody((checks) => checks.SessionResponse, response)).session;
    },
  };
}
