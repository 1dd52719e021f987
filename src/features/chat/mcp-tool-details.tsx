import type { McpToolCall, ToolCall, ToolResultBlock } from "../../protocol/schemas";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { useCopy } from "../../i18n/i18n";
import { mcpToolCopy, type McpToolKey } from "./mcp-tool-copy";
import { prettyArgs } from "./tool-summary";
import "./mcp-tool-details.css";

type T = (key: McpToolKey, values?: Record<string, string | number>) => string;

/** Where the host serves an image an MCP tool returned; never the tool's own URL. */
export function mediaUrl(mediaId: string): string {
  return `/api/media/${encodeURIComponent(mediaId)}`;
}

function approvalLine(mcp: McpToolCall, t: T): string | null {
  switch (mcp.approval) {
    case undefined:
      return null;
    case "asking":
      return t("approvalAsking");
    case "allowed-once":
      return t("approvalAllowedOnce");
    case "allowed-for-chat":
      return t("approvalAllowedForChat");
    case "denied":
      return mcp.reason ? t("approvalDeniedReason", { reason: mcp.reason }) : t("approvalDenied");
    case "read-only":
      return t("approvalReadOnly");
    case "auto-approved":
      return t("approvalAutoApproved");
    case "granted":
      return t("approvalGranted");
    default:
      return mcp.approval satisfies never;
  }
}

function ResultBlock({ block, tool, t }: { block: ToolResultBlock; tool: string; t: T }) {
  switch (block.type) {
    case "text":
      return <pre className="tool-row__raw" dir="auto">{showHiddenCharacters(block.text)}</pre>;
    case "image":
      return <img className="mcp-tool__image" src={mediaUrl(block.mediaId)} alt={t("mcpImage", { tool })} />;
    case "other":
      return (
        <figure className="mcp-tool__block">
          <figcaption className="mcp-tool__label">{showHiddenCharacters(block.label)}</figcaption>
          <pre className="tool-row__raw" dir="auto">{showHiddenCharacters(block.text)}</pre>
        </figure>
      );
    default:
      return block satisfies never;
  }
}

/** One term of the facts list; the value is a server's own name, isolated from the text around it, its hidden characters marked. */
function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>
        <bdi>{showHiddenCharacters(value)}</bdi>
      </dd>
    </div>
  );
}

/**
 * The details of a call to an MCP server's tool: server, tool, how it was approved, the arguments
 * (collapsible), the result and any error. Outside text shows its hidden characters as markers and wraps.
 */
export function McpToolDetails({ tool, mcp }: { tool: ToolCall; mcp: McpToolCall }) {
  const t = useCopy(mcpToolCopy);
  const approval = approvalLine(mcp, t);
  const content = tool.outcome?.kind === "mcp-result" ? tool.outcome.content : [];
  return (
    <div className="mcp-tool">
      <dl className="mcp-tool__facts">
        <Fact term={t("mcpServer")} value={mcp.server} />
        <Fact term={t("mcpTool")} value={mcp.tool} />
      </dl>
      {approval && (
        <p className="mcp-tool__approval" dir="auto">
          {approval}
        </p>
      )}
      <details className="mcp-tool__arguments">
        <summary>{t("mcpArguments")}</summary>
        <pre className="tool-row__raw mcp-tool__json">{showHiddenCharacters(prettyArgs(tool))}</pre>
      </details>
      {content.length > 0 && (
        <section className="mcp-tool__result" aria-label={t("mcpResult")}>
          {content.map((block, index) => (
            <ResultBlock key={index} block={block} tool={mcp.tool} t={t} />
          ))}
        </section>
      )}
      {tool.error && (
        <div className="mcp-tool__error">
          <strong>{t("mcpError")}:</strong>
          <pre className="tool-row__raw" dir="auto">{showHiddenCharacters(`${tool.error.code}: ${tool.error.message}`)}</pre>
        </div>
      )}
      {content.length === 0 && !tool.error && tool.status === "running" && <p className="tool-row__muted">{t("mcpNoResult")}</p>}
    </div>
  );
}
