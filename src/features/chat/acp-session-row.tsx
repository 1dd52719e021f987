import { useId, useState } from "react";
import type { AcpRowData } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { acpCopy, NEVER_ASKING_MODES } from "./acp-copy";

type SessionData = Extract<AcpRowData, { type: "session" }>;

/** POST /api/sessions/:id/mode; rejects with the host's message. */
async function requestMode(sessionId: string, mode: string): Promise<void> {
  const response = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/mode`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mode }) });
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
}

/**
 * The chat's agent session: starting (progress, never a blank), ready in its workspace, failed with its reason, or restarted with
 * or without its memory; the agent's modes as a select that asks before a mode that never asks, and its `/` commands.
 */
export function AcpSessionRow({ sessionId, data }: { sessionId: string; data: SessionData }) {
  const t = useCopy(acpCopy);
  const selectId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const values = { title: data.title, cwd: data.cwd };
  const choose = async (mode: string) => {
    const name = data.modes?.find((offered) => offered.id === mode)?.name ?? mode;
    if (NEVER_ASKING_MODES.has(mode) && !window.confirm(t("modeNeverAsks", { mode: name, title: data.title }))) return;
    setBusy(true);
    setProblem(null);
    try {
      await requestMode(sessionId, mode);
    } catch (error) {
      setProblem(t("modeFailed", { error: error instanceof Error ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="acp-row acp-row--session" data-state={data.state} role="status">
      <span>
        {data.state === "starting" && t("sessionStarting", values)}
        {data.state === "ready" && t("sessionReady", values)}
        {data.state === "failed" && t("sessionFailed", { title: data.title, error: data.error ?? "" })}
      </span>
      {data.modes && data.modes.length > 0 && (
        <span>
          <label htmlFor={selectId}>{t("mode")}</label>{" "}
          <select id={selectId} value={data.mode ?? ""} disabled={busy || data.state !== "ready"} onChange={(event) => void choose(event.target.value)}>
            {data.modes.map((mode) => (
              <option key={mode.id} value={mode.id} title={mode.description}>
                {mode.name}
              </option>
            ))}
          </select>
        </span>
      )}
      {data.usage && <span>{t("usage", { used: data.usage.used, size: data.usage.size })}</span>}
      {data.commands && data.commands.length > 0 && <span className="acp-row__commands">{t("commands", { names: data.commands.map((command) => `/${command.name}`).join(" ") })}</span>}
      {data.resumed && <p className="acp-row__note">{t(data.resumed === "restored" ? "restored" : "memoryLost", values)}</p>}
      {problem && <p className="acp-row__note">{problem}</p>}
    </div>
  );
}
