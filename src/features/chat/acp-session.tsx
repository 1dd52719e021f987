import { useId, useState } from "react";
import type { AcpRowData, Message } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { selectTranscript } from "../../store/selectors";
import type { SessionData } from "../../store/state";
import { acpCopy, NEVER_ASKING_MODES } from "./acp-copy";
import type { ComposerCommand } from "./commands";

/** The data of a chat's agent session row (docs/protocol.md, acp-rows). */
export type AcpSessionData = Extract<AcpRowData, { type: "session" }>;

const latestOf = new WeakMap<readonly Message[], AcpSessionData | null>();

/** The newest agent session row of a transcript (a restart writes a new one), or null for a chat no ACP agent runs. */
export function latestAcpSession(messages: readonly Message[]): AcpSessionData | null {
  const known = latestOf.get(messages);
  if (known !== undefined) return known;
  let found: AcpSessionData | null = null;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const data = messages[index]!.tool?.acp;
    if (data?.type === "session") {
      found = data;
      break;
    }
  }
  latestOf.set(messages, found);
  return found;
}

const selectors = new Map<string, (state: SessionData) => AcpSessionData | null>();

/** The chat's newest agent session row, the same object until that row changes. */
export function selectAcpSession(sessionId: string): (state: SessionData) => AcpSessionData | null {
  let selector = selectors.get(sessionId);
  if (!selector) {
    const transcript = selectTranscript(sessionId);
    selector = (state) => latestAcpSession(transcript(state));
    selectors.set(sessionId, selector);
  }
  return selector;
}

const NO_COMMANDS: readonly ComposerCommand[] = [];
const commandsOf = new WeakMap<AcpSessionData, readonly ComposerCommand[]>();

/** The agent's own `/` commands for the composer's menu, as the agent describes them. */
export function acpCommands(data: AcpSessionData | null): readonly ComposerCommand[] {
  if (!data?.commands || data.commands.length === 0) return NO_COMMANDS;
  let commands = commandsOf.get(data);
  if (!commands) {
    commands = data.commands.map((command) => ({ name: `/${command.name}`, usage: command.hint ? `<${command.hint}>` : "", description: command.description ?? "" }));
    commandsOf.set(data, commands);
  }
  return commands;
}

/** POST /api/sessions/:id/mode; rejects with the host's message. */
async function requestMode(sessionId: string, mode: string): Promise<void> {
  const response = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/mode`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mode }) });
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
}

/** The agent's modes in the chat header: a select showing the current mode that asks before a mode that never asks. */
export function AcpModeSelect({ sessionId, data }: { sessionId: string; data: AcpSessionData }) {
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
