import { PROTOCOL_VERSION } from "../../protocol/schemas";
import { sendJson, type Route } from "./http";
import type { McpServerStatus } from "../mcp-client/manager";
import type { Cluster } from "../pg/cluster";
import type { Store } from "../store";

/**
 * `GET /api/health`: 200 while the store works, 503 with its trouble while it fails (docs/protocol.md, storage-errors);
 * `mcp` lists the configured MCP servers and is absent when there are none (docs/protocol.md, mcp-health).
 */
export function healthRoute({ hostId, model, store, mcp, cluster }: { hostId: string; model: string; store: Store; mcp: () => McpServerStatus[]; cluster?: Cluster | null }): Route {
  return {
    pattern: /^\/api\/health$/,
    methods: {
      GET({ response }) {
        const trouble = store.trouble;
        const storage = trouble ? { state: "failing", code: trouble.code, message: trouble.message } : { state: "ok" };
        const servers = mcp();
        // In a cluster (docs/protocol.md, cluster-health): a host that lost its database or its lease is not ok either.
        const member = cluster ? { id: cluster.id, instance: cluster.instance, instances: cluster.instances(), state: cluster.state() } : null;
        const ok = !trouble && (member === null || member.state === "ok");
        sendJson(response, ok ? 200 : 503, { ok, hostId, protocol: PROTOCOL_VERSION, model, store: store.kind, storage, ...(member ? { cluster: member } : {}), ...(servers.length > 0 ? { mcp: servers } : {}) });
      },
    },
  };
}
