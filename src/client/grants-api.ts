import type { Grant } from "../protocol/schemas";
import { checkedBody, toApiError } from "./api";

/** The chat's grants (docs/protocol.md, mcp-grants): which tools run without asking, and revoking one. */
export interface GrantsApi {
  list(sessionId: string): Promise<Grant[]>;
  /** Resolves once the grant is gone (also when it already was). */
  revoke(sessionId: string, grant: Pick<Grant, "server" | "tool">): Promise<void>;
}

export function createGrantsApi(options: { baseUrl?: string; fetch?: typeof globalThis.fetch } = {}): GrantsApi {
  const baseUrl = options.baseUrl ?? "";
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const path = (...segments: string[]) => `${baseUrl}/api/sessions/${segments.map(encodeURIComponent).join("/")}`;

  return {
    async list(sessionId) {
      const response = await doFetch(path(sessionId, "grants"), { headers: { accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) throw await toApiError(response);
      return (await checkedBody((checks) => checks.GrantsResponse, response)).grants;
    },
    async revoke(sessionId, grant) {
      const response = await doFetch(path(sessionId, "grants", grant.server, grant.tool), { method: "DELETE", headers: { accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok && response.status !== 404) throw await toApiError(response);
    },
  };
}
