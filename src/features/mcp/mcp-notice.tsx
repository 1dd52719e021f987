import { useEffect, useState } from "react";
import { useCopy } from "../../i18n/i18n";
import type { McpServerHealth } from "../../protocol/schemas";
import { mcpCopy } from "./copy";
import { watchMcpStatus } from "./mcp-status";
import "./mcp.css";

/** A notice naming each configured MCP server that failed, with its error; an empty live region otherwise. */
export function McpNotice({ health, intervalMs }: { health: () => Promise<{ mcp?: McpServerHealth[] | undefined }>; intervalMs?: number }) {
  const t = useCopy(mcpCopy);
  const [failed, setFailed] = useState<McpServerHealth[]>([]);
  useEffect(() => watchMcpStatus(health, setFailed, intervalMs), [health, intervalMs]);
  return (
    <div role="status" className="mcp-notice">
      {failed.length > 0 && (
        <ul className="mcp-notice__list">
          {failed.map((server) => (
            <li key={server.name}>{t("serverFailed", { name: server.name, error: server.error ?? "" })}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
