import { SetModeBody } from "../../protocol/schemas";
import type { Logger } from "../log";
import { passToAgentHost, type AgentHostOf } from "./forward";
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

export type SetModeResult = "ok" | "not-found" | "not-agent" | "not-started" | { notOffered: string[] } | { agentSaid: string };

export interface AgentRoutesOptions {
  agents(): AgentListing[];
  /** The folders a chat may run in. */
  workspaces: readonly string[];
  /**
   * Sets an ACP chat's mode: `not-found` for no such session, `not-agent` for a chat no ACP agent runs, `not-started` for
   * a chat whose agent session has not opened yet, `notOffered` (with the modes offered) for a mode its agent lacks,
   * `agentSaid` for one the agent refused.
   */
  setMode(sessionId: string, mode: string): Promise<SetModeResult>;
  /** In a cluster: the host that runs the chat's agent session, which takes the mode instead of this one. */
  agentHost?: AgentHostOf;
  log?: Logger;
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
        async POST(context) {
          const id = context.params[0]!;
          const body = parseBody(SetModeBody, await readJson(context.request, false));
          if (await passToAgentHost(options.agentHost, options.log, context, id, "mode", body)) return;
          const result = await options.setMode(id, body.mode);
          if (result === "not-found") throw new HttpError(404, "NOT_FOUND", `no session ${id}`);
          if (result === "not-agent") throw new HttpError(409, "AGENT_SESSION", "no ACP agent runs this chat, so it has no modes");
          if (result === "not-started") throw new HttpError(409, "AGENT_NOT_STARTED", "the chat's agent session opens with its first message: give the mode when creating the chat, or set it after that");
          if (result !== "ok" && "agentSaid" in result) throw new HttpError(400, "INVALID_BODY", `the chat's agent refused the mode ${JSON.stringify(body.mode)}: ${result.agentSaid}`);
          if (result !== "ok") throw new HttpError(400, "INVALID_BODY", `the chat's agent offers no mode ${JSON.stringify(body.mode)}; it offers ${result.notOffered.join(", ") || "none"}`);
          sendJson(context.response, 202, { mode: body.mode });
        },
      },
    },
  ];
}
