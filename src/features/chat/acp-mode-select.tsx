import { useId, useState } from "react";
import { useCopy } from "../../i18n/i18n";
import { acpCopy, NEVER_ASKING_MODES } from "./acp-copy";
import type { AcpSessionData } from "./acp-session";

/** POST /api/sessions/:id/mode; rejects with the host's message. */
async function requestMode(sessionId: string, mode: string): Promise<void> {
  const response = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/mode`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mode }) });
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
}

/** The agent's modes in the chat header: a select showing the current mode that asks before a mode that never asks. */
export default function AcpModeSelect({ sessionId, data }: { sessionId: string; data: AcpSessionData }) {
  const t = useCopy(acpCopy);
  const selectId = useId();
  const problemId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!data.modes || data.modes.length === 0) return null;
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
    <span className="acp-mode" data-mode={data.mode}>
      <label htmlFor={selectId}>{t("mode")}</label>{" "}
      <select
        id={selectId}
        className="acp-mode__select"
        value={data.mode ?? ""}
        disabled={busy || data.state !== "ready"}
        aria-describedby={problem !== null ? problemId : undefined}
        onChange={(event) => void choose(event.target.value)}
      >
        {data.modes.map((mode) => (
          <option key={mode.id} value={mode.id} title={mode.description}>
            {mode.name}
          </option>
        ))}
      </select>
      {problem && (
        <span id={problemId} className="acp-mode__problem" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}
