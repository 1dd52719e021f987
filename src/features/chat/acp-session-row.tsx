import type { AcpRowData } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { acpCopy } from "./acp-copy";

type SessionData = Extract<AcpRowData, { type: "session" }>;

/**
 * The chat's agent session: starting (progress, never a blank), ready in its workspace, failed with its reason (the agent's
 * own text, hidden characters as markers), or restarted with
 * or without its memory, and its `/` commands. Its modes are a select in the chat header (acp-mode-select.tsx).
 */
export function AcpSessionRow({ data }: { data: SessionData }) {
  const t = useCopy(acpCopy);
  const values = { title: data.title, cwd: data.cwd };
  return (
    <div className="acp-row acp-row--session" data-state={data.state} role="status">
      <span>
        {data.state === "starting" && t("sessionStarting", values)}
        {data.state === "ready" && t("sessionReady", values)}
        {data.state === "failed" && t("sessionFailed", { title: data.title, error: showHiddenCharacters(data.error ?? "") })}
      </span>
      {data.usage && <span>{t("usage", { used: data.usage.used, size: data.usage.size })}</span>}
      {data.commands && data.commands.length > 0 && <span className="acp-row__commands">{t("commands", { names: data.commands.map((command) => `/${command.name}`).join(" ") })}</span>}
      {data.resumed && <p className="acp-row__note">{t(data.resumed === "restored" ? "restored" : "memoryLost", values)}</p>}
    </div>
  );
}
