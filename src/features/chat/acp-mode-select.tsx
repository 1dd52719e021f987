import { useId, useRef, useState } from "react";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { useModalDialog } from "../../ui/modal-dialog";
import { acpCopy, NEVER_ASKING_MODES } from "./acp-copy";
import type { AcpSessionData } from "./acp-session";

/** POST /api/sessions/:id/mode; rejects with the host's message. */
async function requestMode(sessionId: string, mode: string): Promise<void> {
  const response = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/mode`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mode }) });
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
}

/**
 * The agent's modes in the chat header: a select showing the current mode that asks before a mode that never asks, in a
 * modal of the page whose first choice keeps the mode (Escape and a click outside keep it too), then gives focus back.
 */
export default function AcpModeSelect({ sessionId, data }: { sessionId: string; data: AcpSessionData }) {
  const t = useCopy(acpCopy);
  const selectId = useId();
  const problemId = useId();
  const askId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The mode that never asks the user picked, waiting for their word. */
  const [asking, setAsking] = useState<{ mode: string; name: string } | null>(null);
  const select = useRef<HTMLSelectElement>(null);
  const dialog = useModalDialog(
    asking !== null,
    () => setAsking(null),
    () => select.current?.focus(),
  );

  if (!data.modes || data.modes.length === 0) return null;
  const nameOf = (mode: string | undefined) => data.modes?.find((offered) => offered.id === mode)?.name ?? mode ?? "";
  const switchTo = async (mode: string) => {
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
  const choose = (mode: string) => {
    // While a switch is sent the select keeps the focus (a disabled one would drop it) and takes no other choice.
    if (busy) return;
    if (NEVER_ASKING_MODES.has(mode)) setAsking({ mode, name: nameOf(mode) });
    else void switchTo(mode);
  };
  return (
    <span className="acp-mode" data-mode={data.mode}>
      <label htmlFor={selectId}>{t("mode")}</label>{" "}
      <select
        id={selectId}
        ref={select}
        className="acp-mode__select"
        value={data.mode ?? ""}
        disabled={data.state !== "ready"}
        aria-busy={busy}
        aria-describedby={problem !== null ? problemId : undefined}
        onChange={(event) => choose(event.target.value)}
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
      <dialog
        {...dialog}
        className="acp-mode__ask"
        role="alertdialog"
        aria-labelledby={askId}
        onCancel={(event) => {
          event.preventDefault();
          setAsking(null);
        }}
      >
        {asking && (
          <div className="acp-mode__ask-box">
            <p id={askId}>{t("modeNeverAsks", { mode: asking.name, title: data.title })}</p>
            <div className="acp-mode__ask-actions">
              <Button variant="primary" autoFocus onClick={() => setAsking(null)}>
                {t("modeKeep", { mode: nameOf(data.mode) })}
              </Button>
              <Button
                variant="danger"
                onClick={() => {
                  setAsking(null);
                  void switchTo(asking.mode);
                }}
              >
                {t("modeSwitch", { mode: asking.name })}
              </Button>
            </div>
          </div>
        )}
      </dialog>
    </span>
  );
}
