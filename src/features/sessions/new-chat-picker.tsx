import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import type { AgentInfo, AgentsList } from "../../client/agents-api";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { createImeGuard } from "../../ui/ime";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { newChatCopy } from "./new-chat-copy";
import "./new-chat-picker.css";

export interface NewChatPickerProps {
  agents: AgentsList;
  /** A chat with Parley's own assistant, as New chat opens without agents. */
  onAssistant: () => void;
  /** Creates the agent's chat in `cwd` and opens it; rejects with the host's message, shown beside the field. */
  onAgent: (agent: string, cwd: string) => Promise<void>;
  /** Closes the picker; `refocus` returns focus to the button that opened it. */
  onClose: (refocus: boolean) => void;
  /** The New chat button: a press on it is not a press outside. */
  anchorRef: RefObject<HTMLElement | null>;
  /** Asks the host again for the agents' states (while one of them is starting). */
  onRefresh?: () => void;
}

const ASSISTANT = "";
/** How often the states are asked again while an agent is starting, in milliseconds. */
const REFRESH_MS = 1000;

const workspaceKey = (agent: string) => `parley.workspace.${agent}`;

/** The folder last used with this agent on this browser, else the host's first workspace. */
export function rememberedWorkspace(agent: string, workspaces: readonly string[] = []): string {
  try {
    const stored = window.localStorage.getItem(workspaceKey(agent));
    if (stored !== null && stored !== "") return stored;
  } catch {
    // storage unavailable (private mode): fall back to the host's folders
  }
  return workspaces[0] ?? "";
}

function rememberWorkspace(agent: string, cwd: string) {
  try {
    window.localStorage.setItem(workspaceKey(agent), cwd);
  } catch {
    // storage unavailable: the folder is not remembered
  }
}

/** A failed agent can be picked: the chat's first message starts it again (it may have crashed, or been fixed since). */
const pickable = (agent: AgentInfo) => agent.state !== "disabled";

/**
 * New chat's choice when the host runs ACP agents: Parley's assistant or an agent (its title and state; a failed one shows why
 * and can still be picked, a turned-off one cannot), and for an agent the workspace folder, remembered per agent. Escape or a press outside closes it.
 */
export default function NewChatPicker({ agents, onAssistant, onAgent, onClose, anchorRef, onRefresh }: NewChatPickerProps) {
  const t = useCopy(newChatCopy);
  const titleId = useId();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const rootRef = useRef<HTMLFormElement>(null);
  const fieldRef = useRef<HTMLInputElement>(null);
  const [choice, setChoice] = useState(ASSISTANT);
  const [cwds, setCwds] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const agent = agents.agents.find((entry) => entry.name === choice);
  const cwd = agent ? (cwds[agent.name] ?? rememberedWorkspace(agent.name, agents.workspaces)) : "";
  const anyStarting = agents.agents.some((entry) => entry.state === "starting");

  useEffect(() => {
    rootRef.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.focus();
  }, []);

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (rootRef.current?.contains(target) || anchorRef.current?.contains(target)) return;
      onClose(false);
    };
    document.addEventListener("pointerdown", onPointerDown, true);
    return () => document.removeEventListener("pointerdown", onPointerDown, true);
  }, [onClose, anchorRef]);

  useEffect(() => {
    if (!anyStarting || !onRefresh) return;
    const timer = setInterval(onRefresh, REFRESH_MS);
    return () => clearInterval(timer);
  }, [anyStarting, onRefresh]);

  const [imeGuard] = useState(createImeGuard);
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    // The Escape that closes an IME's candidates while a folder is typed is the IME's, not the picker's.
    if (event.key !== "Escape" || imeGuard.isImeEscape({ isComposing: event.nativeEvent.isComposing, keyCode: event.keyCode })) return;
    event.preventDefault();
    event.stopPropagation();
    onClose(true);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!agent) {
      onAssistant();
      return;
    }
    const folder = cwd.trim();
    setBusy(true);
    setProblem(null);
    try {
      await onAgent(agent.name, folder);
      rememberWorkspace(agent.name, folder);
    } catch (error) {
      setProblem(t("createFailed", { error: error instanceof Error ? error.message : String(error) }));
      setBusy(false);
      fieldRef.current?.focus();
    }
  };

  const stateText = (entry: AgentInfo) => {
    switch (entry.state) {
      case "ready":
        return t("stateReady");
      case "starting":
        return t("stateStarting");
      case "idle":
        return t("stateIdle");
      case "disabled":
        return t("stateDisabled");
      case "failed":
        // The agent's own words (its start-up error, its stderr): hidden characters show as markers.
        return t("stateFailed", { error: showHiddenCharacters(entry.error ?? "") });
      default:
        return entry.state;
    }
  };

  return (
    <form ref={rootRef} className="new-chat-picker" role="dialog" aria-labelledby={titleId} onKeyDown={onKeyDown} onCompositionStart={imeGuard.onCompositionStart} onCompositionEnd={imeGuard.onCompositionEnd} onSubmit={(event) => void submit(event)}>
      <h2 id={titleId} className="new-chat-picker__title">
        {t("dialogTitle")}
      </h2>
      <fieldset className="new-chat-picker__choices">
        <legend>{t("who")}</legend>
        <label className="new-chat-picker__choice">
          <input type="radio" name="new-chat-agent" value={ASSISTANT} checked={choice === ASSISTANT} onChange={() => setChoice(ASSISTANT)} />
          <span>
            <span className="new-chat-picker__name">{t("assistant")}</span>
            <span className="new-chat-picker__state">{t("assistantNote")}</span>
          </span>
        </label>
        {agents.agents.map((entry) => (
          <label key={entry.name} className="new-chat-picker__choice" data-state={entry.state}>
            <input
              type="radio"
              name="new-chat-agent"
              value={entry.name}
              checked={choice === entry.name}
              disabled={!pickable(entry)}
              onChange={() => {
                setChoice(entry.name);
                setProblem(null);
              }}
            />
            <span>
              <span className="new-chat-picker__name" dir="auto">
                {entry.title}
              </span>
              <span className="new-chat-picker__state" dir="auto">
                {stateText(entry)}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {agent && (
        <div className="new-chat-picker__workspace">
          <label htmlFor={fieldId}>{t("workspace")}</label>
          <input
            ref={fieldRef}
            id={fieldId}
            className="ui-field"
            value={cwd}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={problem !== null}
            aria-describedby={problem !== null ? `${errorId} ${hintId}` : hintId}
            onChange={(event) => setCwds((current) => ({ ...current, [agent.name]: event.target.value }))}
          />
          <p id={hintId} className="new-chat-picker__hint">
            {t("workspaceHint", { title: agent.title })}
          </p>
          {problem !== null && (
            <p id={errorId} className="new-chat-picker__problem" role="alert">
              {problem}
            </p>
          )}
        </div>
      )}
      <div className="new-chat-picker__actions">
        <Button type="submit" variant="primary" disabled={busy || (agent !== undefined && cwd.trim() === "")}>
          {busy ? t("starting") : t("start")}
        </Button>
        <Button type="button" variant="ghost" onClick={() => onClose(true)}>
          {t("cancel")}
        </Button>
      </div>
    </form>
  );
}
