import { z } from "zod/mini";
import { ApiError, toApiError } from "./api";
import { SessionResponse, type Session } from "../protocol/schemas";

/** One configured ACP agent as `GET /api/agents` reports it (docs/protocol.md, acp-agents). */
export const AgentInfo = z.object({
  name: z.string(),
  title: z.string(),
  state: z.string(),
  error: z.optional(z.string()),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

/** `GET /api/agents`: the agents in file order and the folders a chat may run in. */
export const AgentsResponse = z.object({ agents: z.array(AgentInfo), workspaces: z.optional(z.array(z.string())) });
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
      const body = AgentsResponse.safeParse(await response.json());
      if (!body.success) throw new ApiError(response.status, "INVALID_RESPONSE", `the host sent an unexpected body: ${body.error.message}`);
      return body.data;
    },
    async createChat(agent, cwd) {
      const response = await doFetch(`${baseUrl}/api/sessions`, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ agent, cwd }),
      });
      if (!response.ok) throw await toApiError(response);
      const body = SessionResponse.safeParse(await response.json());
      if (!body.success) throw new ApiError(response.status, "INVALID_RESPONSE", `the host sent an unexpected body: ${body.error.message}`);
      return body.data.session;
    },
  };
}
