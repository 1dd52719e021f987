import { PROTOCOL_VERSION } from "../protocol/schemas";
import { sendJson, type Route } from "./http";
import type { McpServerStatus } from "./mcp-client/manager";
import type { Store } from "./store";

/**
 * `GET /api/health`: 200 while the store works, 503 with its trouble while it fails (docs/protocol.md, storage-errors);
 * `mcp` lists the configured MCP servers and is absent when there are none (docs/protocol.md, mcp-health).
 */
export function healthRoute({ hostId, model, store, mcp }: { hostId: string; model: string; store: Store; mcp: () => McpServerStatus[] }): Route {
  return {
    pattern: /^\/api\/health$/,
    methods: {
      GET({ response }) {
        const trouble = store.trouble;
        const storage = trouble ? { state: "failing", code: trouble.code, message: trouble.message } : { state: "ok" };
        const servers = mcp();
        sendJson(response, trouble ? 503 : 200, { ok: !trouble, hostId, protocol: PROTOCOL_VERSION, model, store: store.kind, storage, ...(servers.length > 0 ? { mcp: servers } : {}) });
      },
    },
  };
}
