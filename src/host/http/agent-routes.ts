import { SetModeBody } from "../../protocol/schemas";
import { HttpError, parseBody, readJson, sendJson, type Route } from "./http";

/** What `GET /api/agents` lists of one configured ACP agent (docs/protocol.md, acp-agents). */
export interface AgentListing {
  name: string;
  title: string;
  state: string;
  error?: string;
  stderrTail?: string[];
  modes?: { id: string; name: string; description?: string }[];
  loadSession?: boolean;
}

export interface AgentRoutesOptions {
  agents(): AgentListing[];
  /** The folders a chat may run in. */
  workspaces: readonly string[];
  /** Sets an ACP chat's mode: `not-found` for no such session, `not-agent` for a chat no ACP agent runs. */
  setMode(sessionId: string, mode: string): Promise<"ok" | "not-found" | "not-agent">;
}

/** `GET /api/agents` and `POST /api/sessions/:id/mode`: the configured ACP agents and a chat's mode. */
export function agentRoutes(options: AgentRoutesOptions): Route[] {
  return [
    {
      pattern: /^\/api\/agents$/,
      methods: {
        async GET({ response }) {
          sendJson(response, 200, { agents: options.agents().map((agent) => ({ ...agent })), workspaces: [...options.workspaces] });
        },
      },
    },
    {
      pattern: /^\/api\/sessions\/([^/]+)\/mode$/,
      methods: {
        async POST({ request, response, params: [id] }) {
          const body = parseBody(SetModeBody, await readJson(request, false));
          const result = await options.setMode(id!, body.mode);
          if (result === "not-found") throw new HttpError(404, "NOT_FOUND", `no session ${id!}`);
          if (result === "not-agent") throw new HttpError(409, "AGENT_SESSION", "no ACP agent runs this chat, so it has no modes");
          sendJson(response, 202, { mode: body.mode });
        },
      },
    },
  ];
}
